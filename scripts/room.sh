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
# The same as `jbang room ...`: this script finds Java 25 and JBang, and
# scripts/room/RoomCommand.java does the rest.
# Exit status: 0 written (or served until stopped), 1 no hand-ins found, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

main() {
  setup_java || exit 2
  setup_jbang || exit 2
  # JBang's launcher execs the Java: Ctrl-C or a kill by this PID stops the room itself.
  exec "${JBANG}" "${ROOT}/scripts/room/RoomCommand.java" --root "${ROOT}" "$@"
}

main "$@"
