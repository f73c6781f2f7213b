#!/usr/bin/env bash
#
# Hands your latest grading and races to the instructor: as one file, or to a live room.
#
# Usage: scripts/handin.sh NAME [--out DIR]
#        scripts/handin.sh NAME --to URL [--code CODE]
#        scripts/handin.sh --leave
#
# Reads .results/checks/NN.json (written by scripts/check.sh) and .results/bench/NN.json (written
# by scripts/bench.sh). Writes DIR/NAME.json (default handin/NAME.json), or posts it to the room
# the instructor runs (scripts/room.sh serve) and joins that room: from then on, every grading and
# race you run is sent to it by itself, in the background (.results/room.json keeps where, and the
# token that keeps NAME yours). --leave stops that. The same as `jbang handin NAME`: this script
# finds Java 25 and JBang, and scripts/room/Handin.java does the rest.
# Exit status: 0 handed in, 1 nothing to hand in yet (or the room refused it or could not be
# reached), 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

exec_program scripts/room/Handin.java "$@"
