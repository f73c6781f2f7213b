#!/usr/bin/env bash
#
# The project's whole self-test; CI (.ci/run) runs exactly this.
#
# Usage: scripts/test.sh [--quick | --exact]
#
# 1. finds or installs every tool (scripts/setup.sh, and the self-test's own: scripts/test/tools.sh);
# 2. shellcheck on every script;
# 3. the rest in Java, each result shown as it is printed (scripts/test/Suite.java, which lists
#    its steps: the kit's, harness's and chapters' self-test with its broken variants, the
#    independent and framework servers, the benchmark and its races, offline readiness, the room,
#    the catalog with no shell, the site and the site in Chromium);
# 4. no process started by the run is still alive.
# Ends with "N passed, N failed"; exit 0 when all passed, 1 otherwise, 2 when it could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"
# shellcheck source=scripts/test/tools.sh
source "${ROOT}/scripts/test/tools.sh"

passed=0
failed=0
failures=()
run_start=${SECONDS}

usage() {
  cat <<'USAGE'
usage: scripts/test.sh [--quick | --exact]

  --quick   skip the broken-variant matrix (unit tests, solutions, exercises and site only)
  --exact   each broken variant runs every check of its chapter and must fail exactly those
            listed in scripts/test/spoilers/NN.txt, cascades included, not only the check named
            for its mistake (about 10 minutes more)
Some steps alone: jbang scripts/test/Suite.java --steps selftest,bench,prefetch,room,no-shell,site,browser
USAGE
}

pass() { passed=$((passed + 1)); echo "ok    $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL  $1" >&2; }

# A section's title, and the seconds since the run began (a CI log shows where the time goes).
section() {
  printf '\n== %s [at %d s]\n' "$1" $((SECONDS - run_start))
}

# Every tool the course needs (scripts/setup.sh's SETUP_TOOLS), then the self-test's own
# (scripts/test/tools.sh: shellcheck, and the browser the site's test drives). Without one of
# the course's, nothing can run; without one of the self-test's, its step fails and the rest runs.
step_tools() {
  section "Tools"
  local tool err
  for tool in "${SETUP_TOOLS[@]}"; do
    if "setup_${tool}"; then pass "tool ${tool} is ready"; else fail "tool ${tool} could not be found or installed"; fi
  done
  [[ ${failed} -eq 0 ]] || return 1
  err="$(mktemp)"
  for tool in shellcheck browser; do
    if "setup_${tool}" 2>"${err}"; then pass "tool ${tool} is ready"; else fail "tool ${tool}: $(tail -n 1 "${err}")"; fi
  done
  rm -f "${err}"
}

step_shellcheck() {
  section "shellcheck on every script"
  command -v shellcheck >/dev/null 2>&1 || return 0  # step_tools said why
  local script
  while IFS= read -r script; do
    if (cd "${ROOT}" && shellcheck -x "${script}"); then pass "shellcheck ${script}"; else fail "shellcheck ${script}"; fi
  done < <(cd "${ROOT}" && { ls scripts/*.sh scripts/test/*.sh; echo .ci/run; })
}

# Step 3, in Java; its last line is "N passed, N failed".
step_suite() {
  local out last status=0
  out="$(mktemp)"
  "${JBANG}" "${ROOT}/scripts/test/Suite.java" "${ROOT}" --at $((SECONDS - run_start)) "$@" | tee "${out}" || status=$?
  last="$(tail -n 1 "${out}")"
  rm -f "${out}"
  if [[ "${last}" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
    [[ "${BASH_REMATCH[2]}" == 0 ]] || failures+=("scripts/test/Suite.java: ${BASH_REMATCH[2]} failed (listed above)")
  else
    fail "scripts/test/Suite.java did not finish (exit ${status}): ${last}"
  fi
}

# Processes started by this run (they inherit its marker variable) that are still alive (Linux).
step_leftovers() {
  section "No process left behind"
  if [[ ! -d /proc/self ]]; then
    pass "no /proc here: leftover check skipped"
    return
  fi
  sleep 1
  local left=() file pid entry
  # /proc/PID/environ is a process's environment as it was exec'd: this shell and its subshells
  # do not show the marker (it was exported later), and grep runs without it.
  while IFS= read -r file; do
    pid="${file#/proc/}"
    pid="${pid%/environ}"
    left+=("${pid}: $(tr '\0' ' ' < "/proc/${pid}/cmdline" 2>/dev/null | cut -c1-160)")
  done < <(env -u COURSE_TEST_RUN grep -lsz "^COURSE_TEST_RUN=${COURSE_TEST_RUN}\$" /proc/[0-9]*/environ || true)
  if [[ ${#left[@]} -eq 0 ]]; then
    pass "no process from this run is still alive"
  else
    fail "processes still alive: ${left[*]}"
    for entry in "${left[@]}"; do kill "${entry%%:*}" 2>/dev/null || true; done
  fi
}

main() {
  local suite_args=()
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --quick|--exact) suite_args+=("$1") ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  COURSE_TEST_RUN="$$-$(date +%s)"
  export COURSE_TEST_RUN
  # A command that stops on an exception nobody foresaw says one sentence; here its stack trace goes to the log too.
  export COURSE_DEBUG=1

  if ! step_tools; then
    echo "test: cannot go on without the tools above" >&2
    echo "${passed} passed, ${failed} failed"
    exit 2
  fi
  step_shellcheck
  step_suite "${suite_args[@]+"${suite_args[@]}"}"
  step_leftovers

  printf '\nTook %d s.\n' $((SECONDS - run_start))
  if [[ ${#failures[@]} -gt 0 ]]; then
    echo "Failed:"
    printf '  - %s\n' "${failures[@]}"
  fi
  echo "${passed} passed, ${failed} failed"
  [[ ${failed} -eq 0 ]]
}

main "$@"
