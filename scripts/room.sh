#!/usr/bin/env bash
#
# Turns a folder of hand-ins into one room summary page, for the instructor.
#
# Usage: scripts/room.sh FOLDER [--out FILE]
#
# FOLDER holds the learners' files from scripts/handin.sh (or raw `scripts/check.sh --all
# --json` and bench.sh files, each named after its learner). Writes FILE (default
# FOLDER/room.html): progress per chapter, and the fastest servers per workload. The page is
# self-contained: open it in any browser, no server needed.
# Exit status: 0 written, 1 no hand-ins found, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  cat <<'USAGE'
usage: scripts/room.sh FOLDER [--out FILE]

  FOLDER      the hand-ins (NAME.json from scripts/handin.sh)
  --out FILE  the summary page to write (default: FOLDER/room.html)
USAGE
}

main() {
  parse_word_and_out "$@"
  local folder="${ARG_WORD}" out="${ARG_OUT:-${ARG_WORD}/room.html}"
  setup_java || exit 2
  setup_jbang || exit 2
  exec "${JBANG}" "${ROOT}/scripts/room/Room.java" summary "${ROOT}" "${folder}" "${out}"
}

main "$@"
