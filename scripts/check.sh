#!/usr/bin/env bash
#
# Grades a chapter's server with the chapter's hidden checks, over real sockets.
#
# Usage: scripts/check.sh NN [--solution | --file FILE | --command "CMD" | --url URL [--pid PID]] [--watch] [--json]
#        scripts/check.sh --all [--solution | --command "CMD"] [--json]
#
# Starts exercises/NN-*.java with JBang (or the solution, or CMD, or nothing with --url), runs the checks,
# prints one line per check (with a hint and a link on failure) and always stops the server.
# The grading itself is Java (scripts/checks/Grade.java); this script finds Java 25 and JBang.
# Exit status: 0 every check passed, 1 some check failed, 2 the checks could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  echo "usage: scripts/check.sh NN|--all [--solution | --file FILE | --command \"CMD\" | --url URL [--pid PID]] [--watch] [--json]"
  echo "       scripts/check.sh --help    explains each option"
}

main() {
  java_wrapper_setup $#
  # The grader's shutdown hook stops the server it started.
  course_program scripts/checks/Grade.java
  run_and_wait "${PROGRAM[@]}" --root "${ROOT}" --jbang "${JBANG}" "$@"
}

main "$@"
