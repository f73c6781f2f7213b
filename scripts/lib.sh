# shellcheck shell=bash
#
# What the command scripts share besides finding tools (scripts/setup.sh does that, and this
# file sources it): running the JBang program a script wraps, and parsing a wrapper's
# arguments. Sourced, not run:
#
#   source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
#
# Functions:
#   java_wrapper_setup NARGS      usage when called with no arguments, else Java 25 and JBang, or exit 2
#   run_and_wait CMD ARG...       runs CMD so that Ctrl-C and every exit stop it; exits with its status
#   exec_program FILE ARG...      Java 25 and JBang (or exit 2), then becomes JBang running FILE --root ROOT ARG...

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

# The start of a script that wraps a JBang program: called with no arguments (NARGS 0) it
# prints the script's usage and exits 2; else it finds Java 25 and JBang, or exits 2.
java_wrapper_setup() {
  if [[ "$1" -eq 0 ]]; then
    usage >&2
    exit 2
  fi
  setup_java || exit 2
  setup_jbang || exit 2
}

# Runs a command (a JBang program) in the background and waits for it, so that the EXIT trap
# stops it by PID on every path, Ctrl-C included; its Java shutdown hooks then stop whatever
# servers or load it started. Exits with the command's status. For scripts that end with it.
background_pid=""

# shellcheck disable=SC2317  # called by the EXIT trap
stop_background() {
  if [[ -n "${background_pid}" ]] && kill -0 "${background_pid}" 2>/dev/null; then
    kill "${background_pid}" 2>/dev/null || true
    wait "${background_pid}" 2>/dev/null || true
  fi
}

run_and_wait() {
  trap stop_background EXIT
  trap 'exit 130' INT TERM
  "$@" &
  background_pid=$!
  local status=0
  wait "${background_pid}" || status=$?
  background_pid=""
  exit "${status}"
}

# Finds Java 25 and JBang, or exits 2; then this shell becomes JBang running the course's program
# FILE (a path from the root) with --root and the arguments, so Ctrl-C or a kill by this PID
# stops the program itself.
exec_program() {
  setup_java || exit 2
  setup_jbang || exit 2
  local file="$1"
  shift
  exec "${JBANG}" "${ROOT}/${file}" --root "${ROOT}" "$@"
}
