#!/usr/bin/env bash
#
# The room, for the instructor: a summary from a folder of hand-ins, the live room, or a name freed.
#
# Usage: scripts/room.sh FOLDER [--out FILE]
#        scripts/room.sh serve [--host H] [--port P] [--dir D] [--code CODE] [--view-code V]
#                              [--max-learners N] [--refresh S]
#        scripts/room.sh free NAME [--dir D]
#
# FOLDER holds the learners' files from scripts/handin.sh (or raw `scripts/check.sh --all
# --json` and bench.sh files, each named after its learner). Writes FILE (default
# FOLDER/room.html): who is stuck on which check, per chapter who is done and the check most
# learners fail, each learner's failing checks, and their races as ratios to the reference. The
# page is self-contained: open it in any browser, no server needed.
# `serve` runs the live room: learners run scripts/handin.sh NAME --to URL --code CODE once, and
# then every grading and race of theirs reaches it by itself. It keeps one file per learner in D
# (default handin/, so a restart loses nothing), and prints the address of its page with the
# viewer code, for the instructor's screen only; the page updates itself in place. It listens on
# 127.0.0.1 unless --host says otherwise, and runs until Ctrl-C.
# `free NAME` lets another laptop take NAME (a name belongs to the laptop that first used it).
# The same as `jbang room ...`: this script finds Java 25 and JBang, and
# scripts/room/RoomCommand.java does the rest.
# Exit status: 0 written (or served until stopped, or freed), 1 no hand-ins found, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

exec_program scripts/room/RoomCommand.java "$@"
