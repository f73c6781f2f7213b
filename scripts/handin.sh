#!/usr/bin/env bash
#
# Hands your latest grading and races to the instructor: as one file, or straight to a live room.
#
# Usage: scripts/handin.sh NAME [--out DIR]
#        scripts/handin.sh NAME --to URL [--code CODE]
#
# Reads .results/checks/NN.json (written by scripts/check.sh) and .results/bench/*.json (written
# by scripts/bench.sh). Writes DIR/NAME.json (default handin/NAME.json), or posts it to the room
# the instructor runs (scripts/room.sh serve). Runs nothing else.
# Exit status: 0 handed in, 1 nothing to hand in yet (or the room refused it), 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  cat <<'USAGE'
usage: scripts/handin.sh NAME [--out DIR]
       scripts/handin.sh NAME --to URL [--code CODE]

  NAME         your name or seat, e.g. ada or table-3 (letters, digits, . _ -)
  --out DIR    where to write NAME.json (default: handin/)
  --to URL     the live room the instructor gave you, e.g. http://10.0.0.5:8400/
  --code CODE  the room's code, if the instructor gave one

Grade or race your own server first (scripts/check.sh NN, scripts/bench.sh NN); this hands
in the results.
USAGE
}

main() {
  parse_args "--out --to --code" "$@"
  java_wrapper_setup "${#ARG_WORD}"
  if [[ -n "${OPT_to}" ]]; then
    exec "${JBANG}" "${ROOT}/scripts/room/Room.java" send "${ROOT}" "${ARG_WORD}" "${OPT_to}" ${OPT_code:+"${OPT_code}"}
  fi
  exec "${JBANG}" "${ROOT}/scripts/room/Room.java" handin "${ROOT}" "${ARG_WORD}" "${OPT_out:-${ROOT}/handin}"
}

main "$@"
