#!/usr/bin/env bash
#
# The project's whole self-test; CI (.ci/run) runs exactly this.
#
# Usage: scripts/test.sh [--quick | --exact]
#
# 1. finds or installs every tool (scripts/setup.sh), then shellcheck on every script;
# 2. the kit's and the grading harness's unit tests; for every chapter: the solution passes
#    its checks, the untouched exercise fails exactly what its TODOs are about, and each
#    known-broken variant of the solution is caught by the check named for its mistake, run
#    alone (with --exact: runs every check and fails exactly those listed, about 10 minutes more)
#    (scripts/test/SelfTest.java, broken variants in scripts/test/spoilers/NN.txt);
#    a Python server written from the protocol page alone passes chapters 01, 03, 04 and 06 (and 05's pool)
#    (scripts/test/independent/server.py, graded as a --url server, in the same Java run);
#    each framework server the race includes (scripts/lib/Frameworks.java: Spring Boot on Tomcat,
#    platform and virtual threads, Helidon SE, Vert.x, Spring WebFlux) passes the protocol's checks likewise;
#    then every solution's checks once more with one core kept busy (a busy laptop);
# 3. the benchmark's unit tests, a smoke race of a solution against itself, a quick self-race
#    whose verdict must be "the same" on hello, io-1000 and cpu, and a quick race of a server made
#    slower on purpose whose verdict on hello must be "slower" (scripts/bench.sh);
# 4. every JBang script's dependencies are cached and it builds offline (scripts/prefetch.sh);
# 5. hand-ins and the room summary (scripts/handin.sh, scripts/room.sh) on a fixture room; then the
#    catalog's aliases (jbang check, doctor, handin, room, bench) with no shell on PATH, JBang run
#    by its launcher in Java (scripts/tools/jbang/JBang.java);
# 6. the site builds with no warnings, and every page shows the code it includes;
# 7. the built site, served under a sub-path, in Chromium: every page loads cleanly, and every
#    feature of js/course/ works (scripts/test/browser.mjs; screenshots in .results/screenshots/);
# 8. no process started by the run is still alive.
# Ends with "N passed, N failed"; exit 0 when all passed, 1 otherwise, 2 when it could not run.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"
# shellcheck source=scripts/test/browser.sh
source "${ROOT}/scripts/test/browser.sh"

passed=0
failed=0
failures=()
site_dir=""
serve_dir=""
server_pid=""
room_pid=""
run_start=${SECONDS}

usage() {
  cat <<'USAGE'
usage: scripts/test.sh [--quick | --exact]

  --quick   skip the broken-variant matrix (unit tests, solutions, exercises and site only)
  --exact   each broken variant runs every check of its chapter and must fail exactly those
            listed in scripts/test/spoilers/NN.txt, cascades included, not only the check named
            for its mistake (about 10 minutes more)
USAGE
}

pass() {
  passed=$((passed + 1))
  echo "ok    $1"
}

fail() {
  failed=$((failed + 1))
  failures+=("$1")
  echo "FAIL  $1" >&2
}

# A section's title, and the seconds since the run began (a CI log shows where the time goes).
section() {
  printf '\n== %s [at %d s]\n' "$1" $((SECONDS - run_start))
}

cleanup() {
  stop_server
  stop_room
  if [[ -n "${site_dir}" ]]; then
    rm -rf "${site_dir}"
  fi
}

# Prints what sed script $3 makes of the first line of log $1 it matches, looking $4 times,
# 0.2 s apart, while process $2 runs; prints nothing if it never comes or the process exits.
await_line() {
  local log="$1" pid="$2" script="$3" tries="$4" found="" _
  for _ in $(seq "${tries}"); do
    found="$(sed -n "${script}" "${log}" 2>/dev/null | head -n 1)"
    [[ -n "${found}" ]] && break
    kill -0 "${pid}" 2>/dev/null || break
    sleep 0.2
  done
  echo "${found}"
}

# Stops a process this script started, by its PID (empty: nothing to stop).
stop_pid() {
  if [[ -n "$1" ]]; then
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
  fi
}

# The web server step_browser started, and the folder it served.
stop_server() {
  stop_pid "${server_pid}"
  server_pid=""
  if [[ -n "${serve_dir}" ]]; then
    rm -rf "${serve_dir}"
    serve_dir=""
  fi
}

# Every tool the course needs, found or installed.
step_tools() {
  section "Tools"
  local tool
  for tool in java jbang hugo asciidoctor bombardier; do
    if "setup_${tool}"; then
      pass "tool ${tool} is ready"
    else
      fail "tool ${tool} could not be found or installed"
    fi
  done
}

step_shellcheck() {
  section "shellcheck on every script"
  if ! command -v shellcheck >/dev/null 2>&1; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
      echo "test: installing shellcheck with apt-get (once)" >&2
      apt-get install -y -qq shellcheck >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq shellcheck >/dev/null 2>&1; } || true
    fi
  fi
  if ! command -v shellcheck >/dev/null 2>&1; then
    fail "shellcheck is not installed: apt-get install shellcheck, brew install shellcheck, or scoop install shellcheck"
    return
  fi
  local script
  while IFS= read -r script; do
    if (cd "${ROOT}" && shellcheck -x "${script}"); then
      pass "shellcheck ${script}"
    else
      fail "shellcheck ${script}"
    fi
  done < <(cd "${ROOT}" && { ls scripts/*.sh; echo .ci/run; })
}

# The lines of the self-test's output that a reader needs, each as soon as it is printed
# (a plain grep into a file or a pipe holds its output back until it has 4 KiB or ends).
results_filter() {
  grep --line-buffered -E '^(ok  |FAIL  |      [^ ]|== |\()' || true
}

# The filter must pass a result on at once, not when the run ends: CI logs show where it is.
step_streaming() {
  section "The self-test prints each result as it happens"
  local out pid
  out="$(mktemp)"
  { echo "ok    first"; sleep 3; echo "ok    second"; } | results_filter >"${out}" &
  pid=$!
  sleep 1.5
  if grep -q '^ok    first$' "${out}"; then
    pass "a result passes the output filter at once, not at the end of the run"
  else
    fail "the output filter held a result back for over 1.5 s (block buffering)"
  fi
  wait "${pid}" || true
  rm -f "${out}"
}

# Unit tests and the chapter matrix, in Java; its last line is "N passed, N failed".
step_selftest() {
  section "Kit, harness and chapters (scripts/test/SelfTest.java)"
  local out status=0 last
  out="$(mktemp)"
  # Under pipefail the pipeline's status is the self-test's (a failure is counted below, not fatal).
  "${JBANG}" "${ROOT}/scripts/test/SelfTest.java" "${ROOT}" "$@" 2>&1 | tee "${out}" | results_filter || status=$?
  last="$(tail -n 1 "${out}")"
  rm -f "${out}"
  if [[ "${last}" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
    if [[ "${BASH_REMATCH[2]}" != 0 ]]; then
      failures+=("self-test: ${BASH_REMATCH[2]} failed (see FAIL lines above)")
    fi
  else
    fail "self-test did not finish (exit ${status}): ${last}"
  fi
}

# Counts each "ok    NAME" / "FAIL  NAME" line of a command; it must end with "N passed, N failed".
count_lines() {
  local line last="" status=0
  while IFS= read -r line; do
    case "${line}" in
      "ok    "*) pass "${line#ok    }" ;;
      "FAIL  "*) fail "${line#FAIL  }" ;;
      "      "*) printf '%s\n' "${line}" ;;   # why the test above failed
    esac
    last="${line}"
  done < <("$@" 2>&1)
  if [[ ! "${last}" =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
    status=1
    fail "$(basename "$2") did not finish: ${last}"
  fi
  return "${status}"
}

# The benchmark's unit tests, then its races end to end, each checked on its JSON: a smoke race,
# a self-race whose verdict must be "the same", a reactor made slower on purpose (about 6 µs of
# CPU a request) whose verdict on hello must be "slower", with no progress line in its piped
# output, the db and mixed workloads, chapter 08's trips, the ramp's first steps, the open loop
# (scripts/test/TestBench.java --races; logs in .results/bench-*.log).
step_bench() {
  section "The benchmark (scripts/bench.sh)"
  count_lines "${JBANG}" "${ROOT}/scripts/test/TestBench.java" || true
  count_lines "${JBANG}" "${ROOT}/scripts/test/TestBench.java" --races || true
}

# The room needs no network: every JBang script's dependencies are cached and it builds offline.
step_prefetch() {
  section "Offline readiness (scripts/prefetch.sh)"
  local log="${ROOT}/.results/prefetch.log" status=0
  mkdir -p "${ROOT}/.results"
  "${ROOT}/scripts/prefetch.sh" >"${log}" 2>&1 || status=$?
  if [[ ${status} -eq 0 ]]; then
    pass "prefetch.sh: $(tail -n 1 "${log}")"
    local count
    count="$(tail -n 1 "${log}" | sed -n 's/^prefetch: \([0-9]*\) files cached.*/\1/p')"
    if grep -q "^prefetch: ${count} files cached" "${ROOT}/site/content/guide/instructor.adoc"; then
      pass "the instructor guide's sample prefetch line says ${count} files, as prefetch.sh does"
    else
      fail "the instructor guide's sample prefetch line does not say ${count} files, as prefetch.sh does: change it"
    fi
  else
    fail "prefetch.sh exits ${status}: $(grep -E 'MISSING|does not|FAIL|prefetch:' "${log}" | tail -n 3 | tr '\n' ' ')(see ${log})"
  fi
}

# Hand-ins, the room summary and the live room: in process (30 learners at once, names kept per
# laptop, made-up ids, the room's clock, caps under a flood, the viewer code, results sent as they
# are saved), then handin.sh and room.sh end to end (scripts/test/RoomTest.java).
step_room() {
  section "Hand-ins and the room summary (scripts/handin.sh, scripts/room.sh)"
  count_lines "${JBANG}" "${ROOT}/scripts/test/RoomTest.java" "${ROOT}" || true
}

# The address room serve (log $1, PID $2) tells learners to hand in to, once it printed it.
room_address() {
  await_line "$1" "$2" 's|^room: learners run once: jbang handin NAME --to \(http://[^ ]*\).*|\1|p' 150
}

stop_room() {
  stop_pid "${room_pid}"
  room_pid=""
}

# The catalog's aliases (jbang-catalog.json) with no shell at all: a PATH holding only java, and
# JBang run by scripts/tools/jbang/JBang.java (a launcher in Java, which runs JBang's jar and the
# command it prints) instead of JBang's bash script; each from a different folder of the course
# (scripts/test/NoShellTest.java).
step_no_shell() {
  section "jbang check, doctor, handin, room and bench with no shell on PATH (jbang-catalog.json)"
  count_lines "${JBANG}" "${ROOT}/scripts/test/NoShellTest.java" "${ROOT}" || true
}

# The site builds (into site_dir, which the browser step serves), shows the code it includes, packs
# into a folder that reads offline, and a page with a missing tag fails the build
# (scripts/test/SiteTest.java); the pages' figures come from the committed runs: an edited run
# changes them, a literal copy or a missing figure fails the build (scripts/test/FiguresTest.java).
step_site() {
  section "The site"
  site_dir="$(mktemp -d)"
  count_lines "${JBANG}" "${ROOT}/scripts/test/SiteTest.java" "${ROOT}" "${site_dir}" || true
  count_lines "${JBANG}" "${ROOT}/scripts/test/FiguresTest.java" "${ROOT}" || true
}

# The site step's build in Chromium, served under /course/ as on a project's GitHub Pages:
# every page loads with no error and asks no other host, and each feature of js/course/ works.
step_browser() {
  section "The site in a browser (scripts/test/browser.mjs)"
  if [[ -z "${site_dir}" || ! -f "${site_dir}/index.html" ]]; then
    fail "browser: no built site to test (see the site step)"
    return
  fi
  local err
  err="$(mktemp)"
  if ! setup_browser 2>"${err}"; then
    fail "browser: $(tail -n 1 "${err}")"
    rm -f "${err}"
    return
  fi
  cat "${err}" >&2
  rm -f "${err}"
  serve_dir="$(mktemp -d)"
  mkdir -p "${serve_dir}/course"
  # The build, without the broken copy that step_site made next to it.
  (cd "${site_dir}" && tar -cf - --exclude=./broken-copy --exclude=./broken-out .) | tar -xf - -C "${serve_dir}/course"
  # The chapter panels draw bench/reference.json (site/static/bench/, published with the site).
  local bench="${serve_dir}/course/bench"
  if [[ -f "${bench}/reference.json" ]]; then
    pass "browser: the site carries bench/reference.json for its charts"
  else
    fail "browser: site/static/bench/reference.json is missing (the charts are tested on io-2000-thorough.json instead)"
    cp "${bench}/io-2000-thorough.json" "${bench}/reference.json" 2>/dev/null || true
  fi
  # The room summary step_room made, served beside the site for the browser test.
  cp "${ROOT}/.results/room-check.html" "${serve_dir}/course/room-check.html" 2>/dev/null || true
  # Port 0: the system picks a free port, and the server says which.
  local log="${serve_dir}/server.log" port
  python3 -u -m http.server --bind 127.0.0.1 --directory "${serve_dir}" 0 >"${log}" 2>&1 &
  server_pid=$!
  port="$(await_line "${log}" "${server_pid}" 's/^Serving HTTP on .* port \([0-9][0-9]*\) .*/\1/p' 50)"
  if [[ -z "${port}" ]]; then
    fail "browser: python3 -m http.server did not start in 10 s: $(tail -n 1 "${log}")"
    stop_server
    return
  fi
  # A live room for the browser's room test, its page updating every second (browser.mjs posts to it).
  local room_log="${serve_dir}/room.log"
  "${ROOT}/scripts/room.sh" serve --port 0 --dir "${serve_dir}/live-room" --code sesame --view-code browser-test --refresh 1 \
    >"${room_log}" 2>&1 &
  room_pid=$!
  export ROOM_URL ROOM_CODE=sesame ROOM_VIEW=browser-test
  ROOM_URL="$(room_address "${room_log}" "${room_pid}")"
  [[ -n "${ROOM_URL}" ]] || fail "browser: room.sh serve printed no address in 30 s, so the live room is not tested: $(tail -n 1 "${room_log}")"
  mkdir -p "${ROOT}/.results/screenshots"
  count_lines node "${ROOT}/scripts/test/browser.mjs" "http://127.0.0.1:${port}/course/" "${ROOT}/.results/screenshots" || true
  unset ROOM_URL ROOM_CODE ROOM_VIEW
  stop_room
  stop_server
}

# Processes started by this run (they inherit its marker variable) that are still alive (Linux).
step_leftovers() {
  section "No process left behind"
  if [[ ! -d /proc/self ]]; then
    pass "no /proc here: leftover check skipped"
    return
  fi
  sleep 1
  local left=() file pid
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
    local entry
    for entry in "${left[@]}"; do kill "${entry%%:*}" 2>/dev/null || true; done
  fi
}

main() {
  local selftest_args=()
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --quick) selftest_args+=(--quick) ;;
      --exact) selftest_args+=(--exact) ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  trap cleanup EXIT
  COURSE_TEST_RUN="$$-$(date +%s)"
  export COURSE_TEST_RUN
  run_start=${SECONDS}

  step_tools
  if [[ ${failed} -gt 0 ]]; then
    echo "test: cannot go on without the tools above" >&2
    echo "${passed} passed, ${failed} failed"
    exit 2
  fi
  step_shellcheck
  step_streaming
  step_selftest "${selftest_args[@]+"${selftest_args[@]}"}"
  step_bench
  step_prefetch
  step_room
  step_no_shell
  step_site
  step_browser
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
