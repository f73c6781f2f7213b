//go:build tools

// Package tools pins Bombardier, the load generator scripts/bench.sh uses; scripts/setup.sh
// builds it from here when it is not installed.
package tools

import _ "github.com/codesenberg/bombardier"
