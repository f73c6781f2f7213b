#!/usr/bin/env bash
#
# Races a chapter's server against the reference solution, on the same workloads, honestly.
#
# Usage: scripts/bench.sh NN [--quick | --thorough | --smoke] [--workloads LIST] [--url URL [--pid PID]] [--timeline WORKLOAD]
#        scripts/bench.sh --all [--quick | --thorough] [--workloads LIST]
#
# Starts exercises/NN-*.java and solutions/NN-*.java with JBang (or uses --url), loads them in
# turn with Bombardier (with --open-loop, with Vegeta too), prints a table and a chart, writes
# .results/bench/NN.json, and always stops the servers it started. The benchmark itself is Java
# (scripts/bench/Bench.java).
# Exit status: 0 done, 1 done but something was flagged, 2 could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

usage() {
  cat <<'USAGE'
usage: scripts/bench.sh NN [options]      race exercises/NN-*.java against solutions/NN-*.java
       scripts/bench.sh --all [options]   every reference solution and a plain Netty server
       scripts/bench.sh --help            explains each option
USAGE
}

main() {
  java_wrapper_setup $#
  case " $* " in
    *" -h "*|*" --help "*) ;;   # the usage text needs no Bombardier
    *) setup_bombardier || exit 2 ;;
  esac
  case " $* " in
    *" -h "*|*" --help "*) ;;
    *" --open-loop "*) setup_vegeta || exit 2 ;;   # only the open loop needs Vegeta (a minute to build, once)
  esac
  local display=()
  if [[ -t 2 ]]; then display+=(--tty); fi
  if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then display+=(--color); fi
  # Bench's shutdown hooks stop the servers, and the Bombardier or Vegeta, it started.
  run_and_wait "${JBANG}" "${ROOT}/scripts/bench/Bench.java" --root "${ROOT}" --jbang "${JBANG}" \
    --bombardier "${BOMBARDIER:-bombardier}" --vegeta "${VEGETA:-vegeta}" "${display[@]+"${display[@]}"}" "$@"
}

main "$@"
