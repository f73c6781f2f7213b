#!/usr/bin/env bash
#
# Packs your latest grading and races into one file to hand to the instructor.
#
# Usage: scripts/handin.sh NAME [--out DIR]
#
# Reads .results/checks/NN.json (written by scripts/check.sh) and .results/bench/*.json (written
# by scripts/bench.sh) and writes DIR/NAME.json (default handin/NAME.json). Runs nothing else.
# Exit status: 0 written, 1 nothing to hand in yet, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  cat <<'USAGE'
usage: scripts/handin.sh NAME [--out DIR]

  NAME        your name or seat, e.g. ada or table-3 (letters, digits, . _ -)
  --out DIR   where to write NAME.json (default: handin/)

Grade or race first (scripts/check.sh --all, scripts/bench.sh NN); this packs the results.
USAGE
}

main() {
  parse_word_and_out "$@"
  local name="${ARG_WORD}" out="${ARG_OUT:-${ROOT}/handin}"
  setup_java || exit 2
  setup_jbang || exit 2
  exec "${JBANG}" "${ROOT}/scripts/room/Room.java" handin "${ROOT}" "${name}" "${out}"
}

main "$@"
