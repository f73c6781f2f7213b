//go:build tools

// Package tools pins Vegeta, the open-loop load generator scripts/bench.sh --open-loop uses;
// scripts/setup.sh builds it from here when it is not installed.
package tools

import _ "github.com/tsenart/vegeta/v12"
