#!/usr/bin/env bash
#
# The room summary, for the instructor: from a folder of hand-ins, or live.
#
# Usage: scripts/room.sh FOLDER [--out FILE]
#        scripts/room.sh serve [--host H] [--port P] [--dir D] [--code CODE]
#
# FOLDER holds the learners' files from scripts/handin.sh (or raw `scripts/check.sh --all
# --json` and bench.sh files, each named after its learner). Writes FILE (default
# FOLDER/room.html): per chapter who is done and the check most learners are stuck on, each
# learner's failing checks, and their races as ratios to the reference. The page is
# self-contained: open it in any browser, no server needed.
# `serve` runs the live room: learners post with scripts/handin.sh NAME --to URL, the hand-ins
# are kept in D (default handin/, so a restart loses nothing), and the page at / reloads itself.
# It listens on 127.0.0.1 unless --host says otherwise, and runs until Ctrl-C.
# Exit status: 0 written (or served until stopped), 1 no hand-ins found, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  cat <<'USAGE'
usage: scripts/room.sh FOLDER [--out FILE]
       scripts/room.sh serve [--host H] [--port P] [--dir D] [--code CODE]

  FOLDER       the hand-ins (NAME.json from scripts/handin.sh)
  --out FILE   the summary page to write (default: FOLDER/room.html)

  serve        the live room: learners run scripts/handin.sh NAME --to URL
  --host H     the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for the room)
  --port P     the port (default 8400; 0 takes any free one)
  --dir D      where hand-ins are kept (default handin/)
  --code CODE  only hand-ins that carry this code count (give it to the room with the URL)
USAGE
}

serve() {
  parse_args "--host --port --dir --code" "$@"
  if [[ -n "${ARG_WORD}" ]]; then usage >&2; exit 2; fi
  local host="${OPT_host:-127.0.0.1}" port="${OPT_port:-8400}" dir="${OPT_dir:-${ROOT}/handin}" code="${OPT_code}"
  if [[ ! "${port}" =~ ^[0-9]+$ ]] || (( port > 65535 )); then
    echo "room: --port must be a number from 0 to 65535, not '${port}'" >&2
    exit 2
  fi
  java_wrapper_setup 1
  run_and_wait "${JBANG}" "${ROOT}/scripts/room/Room.java" serve "${ROOT}" "${dir}" "${host}" "${port}" ${code:+"${code}"}
}

main() {
  if [[ "${1:-}" == serve ]]; then
    shift
    serve "$@"
  fi
  parse_args "--out" "$@"
  java_wrapper_setup "${#ARG_WORD}"
  exec "${JBANG}" "${ROOT}/scripts/room/Room.java" summary "${ROOT}" "${ARG_WORD}" "${OPT_out:-${ARG_WORD}/room.html}"
}

main "$@"
