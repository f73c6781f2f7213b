#!/usr/bin/env bash
#
# Grades a chapter's server with the chapter's hidden checks, over real sockets.
#
# Usage: scripts/check.sh NN [--solution | --file FILE | --url URL [--pid PID]] [--watch] [--json]
#        scripts/check.sh --all [--json]
#
# Starts exercises/NN-*.java with JBang (or the solution, or nothing with --url), runs the checks,
# prints one line per check (with a hint and a link on failure) and always stops the server.
# The grading itself is Java (scripts/checks/Grade.java); this script finds Java 25 and JBang.
# Exit status: 0 every check passed, 1 some check failed, 2 the checks could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

grader_pid=""

usage() {
  cat <<'USAGE'
usage: scripts/check.sh NN [options]     grade exercises/NN-*.java (e.g. scripts/check.sh 01)
       scripts/check.sh --all [options]  grade every chapter, with a progress table

  --solution        grade the reference solution instead
  --url URL         grade a server that is already running (any language or framework)
  --pid PID         with --url: its process, for the checks that read threads and files
  --watch           grade again each time you save the exercise file
  --json            print the results as JSON (progress is always saved in .results/checks/)
  --file FILE       grade another server file for chapter NN

Exit status: 0 every check passed, 1 some failed, 2 the checks could not run.
USAGE
}

# shellcheck disable=SC2317  # called by the EXIT trap
stop_grader() {
  if [[ -n "${grader_pid}" ]] && kill -0 "${grader_pid}" 2>/dev/null; then
    kill "${grader_pid}" 2>/dev/null || true   # its shutdown hook stops the server it started
    wait "${grader_pid}" 2>/dev/null || true
  fi
}

main() {
  if [[ $# -eq 0 ]]; then
    usage >&2
    exit 2
  fi
  case "$1" in
    -h|--help) usage; exit 0 ;;
  esac
  setup_java || exit 2
  setup_jbang || exit 2
  trap stop_grader EXIT
  trap 'exit 130' INT TERM
  "${JBANG}" "${ROOT}/scripts/checks/Grade.java" --root "${ROOT}" --jbang "${JBANG}" "$@" &
  grader_pid=$!
  local status=0
  wait "${grader_pid}" || status=$?
  grader_pid=""
  exit "${status}"
}

main "$@"
