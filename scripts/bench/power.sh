#!/usr/bin/env bash
#
# Measures what the quick race can tell on hello: races the reference against itself, and
# against itself made slower on purpose (scripts/test/fixtures/bench/03-slower.txt: N ns of CPU
# time spent per request), each several times, then writes how often each verdict came out.
#
# Usage: scripts/bench/power.sh [--races N] [--self N] [--spins "500 1000"] [--out FILE] [--keep]
#   --races N      races of each slower server (default 5)
#   --self N       races of the reference against itself (default twice --races)
#   --spins LIST   the CPU time, in ns per request, the slower servers add (default "500 1000")
#   --out FILE     the summary (default .results/bench/power.json); the races' JSON go in FILE-races/
#   --keep         keep the races of an earlier run to the same FILE, and summarise them all
# About 2 minutes a race on a 2-core machine. Exit 0 done, 2 could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"

usage() {
  sed -n '3,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

main() {
  local races=5 self="" spins="500 1000" out="${ROOT}/.results/bench/power.json" keep=0 command="scripts/bench/power.sh" arg
  # The command as it was typed: a word with a space in double quotes, so it can be run again.
  for arg in "$@"; do
    if [[ "${arg}" == *" "* ]]; then command+=" \"${arg}\""; else command+=" ${arg}"; fi
  done
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --races) races="${2:?--races needs a number}"; shift 2 ;;
      --self) self="${2:?--self needs a number}"; shift 2 ;;
      --spins) spins="${2:?--spins needs a list of nanoseconds}"; shift 2 ;;
      --out) out="${2:?--out needs a file}"; shift 2 ;;
      --keep) keep=1; shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "power: unknown option $1; see --help" >&2; exit 2 ;;
    esac
  done
  self="${self:-$((2 * races))}"
  java_wrapper_setup 1
  local dir learner="${ROOT}/.broken/03-bench-slower.java" i spin n
  dir="${out%.json}-races"
  mkdir -p "${dir}"
  if [[ ${keep} -eq 0 ]]; then rm -f "${dir}"/*.json "${dir}/commands.txt"; fi
  # The commands that made the races, one a line: the summary names them all.
  echo "${command}" >>"${dir}/commands.txt"
  "${JBANG}" "${ROOT}/scripts/test/TestBench.java" --mutate "${ROOT}/scripts/test/fixtures/bench/03-slower.txt" \
    "${ROOT}/solutions/03-reactor.java" "${learner}"
  # Interleaved, so that the machine's drift falls on every kind alike: each round its share of the self-races, then each spin.
  local rounds=$((races > 0 ? races : self)) done_self=0
  for ((i = 1; i <= rounds; i++)); do
    echo "power: round ${i} of ${rounds}" >&2
    while ((done_self * rounds < i * self)); do
      n="$(find "${dir}" -name 'self-*.json' | wc -l)"
      "${ROOT}/scripts/bench.sh" 03 --solution-vs-solution --quick --workloads hello --out "${dir}/self-$((n + 1)).json" >/dev/null || true
      done_self=$((done_self + 1))
    done
    ((i <= races)) || continue
    for spin in ${spins}; do
      n="$(find "${dir}" -name "spin-${spin}-*.json" | wc -l)"
      BENCH_SPIN_NANOS="${spin}" "${ROOT}/scripts/bench.sh" 03 --learner "${learner}" --quick --workloads hello \
        --out "${dir}/spin-${spin}-$((n + 1)).json" >/dev/null || true
    done
  done
  "${JBANG}" "${ROOT}/scripts/bench/Power.java" "${dir}" "${out}"
}

main "$@"
