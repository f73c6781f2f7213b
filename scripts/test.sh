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
#    platform and virtual threads, Helidon SE, Vert.x) passes the protocol's checks likewise;
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

# The benchmark's unit tests, a smoke race (a solution against itself, hello only, seconds), a
# quick self-race on three workloads whose verdict must be "the same" on each (about 100 s), a
# quick race of a server made slower on purpose that must be "slower" (about 45 s), and a smoke
# race of db and mixed.
step_bench() {
  section "The benchmark (scripts/bench.sh)"
  count_lines "${JBANG}" "${ROOT}/scripts/test/TestBench.java" || true
  self_race --smoke "${ROOT}/.results/bench-smoke.log" 03 --smoke
  # The verdict's proof: the reference raced against itself is "the same" on every workload...
  self_race --same "${ROOT}/.results/bench-self-race.log" 03 --quick --workloads hello,io-1000,cpu
  # ...and a reactor that spends about 3 µs more CPU per request (about 25%) is "slower" on hello
  # (scripts/test/fixtures/bench/03-slower.txt; about 40 s); its piped output has no progress lines.
  slower_race "${ROOT}/.results/bench-slower.log"
  # The pool's workload and the one with a background load, end to end (about 50 s).
  self_race --db-mixed "${ROOT}/.results/bench-db-mixed.log" 03 --smoke --workloads db,mixed
  # Chapter 08's own race: the backend started, its URL given to both servers (about 20 s).
  self_race --trip "${ROOT}/.results/bench-trip.log" 08 --smoke
  # The ramp's first two steps: the steps run, the summary written, nobody broken (about 20 s).
  self_race --ramp "${ROOT}/.results/bench-ramp.log" 03 --smoke --ramp
  # The open loop: Vegeta at a fixed rate, then Bombardier at the same rate (about 25 s).
  self_race --open-loop "${ROOT}/.results/bench-open-loop.log" 03 --smoke --open-loop
}

# Races solution 03 made slower on purpose (scripts/test/fixtures/bench/03-slower.txt) against the
# reference on hello, quick, output piped to LOG: the verdict must be "slower", and LOG must hold
# no progress line (those go to a terminal only).
slower_race() {
  local log="$1" learner="${ROOT}/.broken/03-bench-slower.java"
  if ! "${JBANG}" "${ROOT}/scripts/test/TestBench.java" --mutate "${ROOT}/scripts/test/fixtures/bench/03-slower.txt" \
      "${ROOT}/solutions/03-reactor.java" "${learner}" >"${log}" 2>&1; then
    fail "the slower server could not be made from scripts/test/fixtures/bench/03-slower.txt: $(tail -n 1 "${log}")"
    return
  fi
  bench_race --slower "${log}" 03 --learner "${learner}" --quick --workloads hello
  if grep -q -e '^bench: ' -e $'\r' "${log}"; then
    fail "bench.sh piped to a file printed progress lines (see ${log}): they belong on a terminal only"
  else
    pass "bench.sh piped to a file prints no progress lines, only the table, verdicts and notes"
  fi
}

# Races chapter NN's solution against itself with bench.sh OPTION..., then checks its JSON
# with TestBench CHECK (--smoke: every field is there; --same: every verdict is "the same";
# --db-mixed: the pool's options and the background load reached the servers; --trip: both
# made their trips through the backend the race started; --ramp: both held the first steps;
# --open-loop: both got the fixed rate from Vegeta and from Bombardier, and lost nothing).
self_race() {
  local check="$1" log="$2" chapter="$3"
  shift 3
  bench_race "${check}" "${log}" "${chapter}" --solution-vs-solution "$@"
}

# Races chapter NN with bench.sh OPTION... (output to LOG), then checks its JSON with TestBench CHECK.
bench_race() {
  local check="$1" log="$2" chapter="$3" json status=0
  shift 3
  json="$(mktemp)"
  rm -f "${json}"
  mkdir -p "${ROOT}/.results"
  "${ROOT}/scripts/bench.sh" "${chapter}" "$@" --out "${json}" >"${log}" 2>&1 || status=$?
  if [[ ${status} -eq 0 ]]; then
    pass "bench.sh ${chapter} $* exits 0"
  else
    fail "bench.sh ${chapter} $* exits ${status} (see ${log})"
  fi
  count_lines "${JBANG}" "${ROOT}/scripts/test/TestBench.java" "${check}" "${json}" || true
  rm -f "${json}"
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
# command it prints) instead of JBang's bash script; each from a different folder of the course.
step_no_shell() {
  section "jbang check, doctor, handin, room and bench with no shell on PATH (jbang-catalog.json)"
  local dir bin out status url log
  dir="$(mktemp -d)"
  bin="${dir}/bin"
  mkdir -p "${bin}" "${dir}/learner/.results" "${dir}/room" "${dir}/live"
  ln -s "${JAVA_HOME}/bin/java" "${bin}/java"
  cp -R "${ROOT}/scripts/test/fixtures/room/ada-results/." "${dir}/learner/.results/"
  if [[ -e "${bin}/bash" || -e "${bin}/sh" ]]; then fail "the shell-less PATH holds a shell"; return; fi

  out="$(cd "${ROOT}/exercises" && no_shell "${bin}" check 01 --solution 2>&1)" && status=0 || status=$?
  if [[ ${status} -eq 0 && "${out}" == *" 0 failed"* && "${out}" == *"chapter 01 done"* ]]; then
    pass "jbang check 01 --solution from exercises/, no shell: every check passes"
  else
    fail "jbang check 01 --solution with no shell exits ${status}: $(tail -n 3 <<<"${out}" | tr '\n' ' ')"
  fi

  # Only java on PATH: the doctor must find JBang through the Java launcher, and say Asciidoctor is missing.
  out="$(cd "${ROOT}/site" && no_shell "${bin}" doctor 2>&1)" && status=0 || status=$?
  if [[ ${status} -eq 2 && "${out}" =~ ok\ +jbang\ .*JBang\.java && "${out}" =~ missing\ +asciidoctor ]]; then
    pass "jbang doctor from site/, no shell: finds JBang through the Java launcher, reports Asciidoctor missing, exits 2"
  else
    fail "jbang doctor with no shell exits ${status}: $(grep -E 'jbang|asciidoctor' <<<"${out}" | tr '\n' ' ')"
  fi

  out="$(cd "${ROOT}/scripts" && no_shell "${bin}" handin ada --root "${dir}/learner" --out "${dir}/room" 2>&1)" && status=0 || status=$?
  if [[ ${status} -eq 0 && -f "${dir}/room/ada.json" ]] \
     && (cd "${ROOT}/scripts" && no_shell "${bin}" room "${dir}/room" >/dev/null 2>&1) && grep -q '1 learner(s)' "${dir}/room/room.html"; then
    pass "jbang handin ada and jbang room FOLDER from scripts/, no shell: a hand-in, and its summary"
  else
    fail "jbang handin or jbang room FOLDER with no shell (exit ${status}): $(tail -n 2 <<<"${out}" | tr '\n' ' ')"
  fi
  log="${dir}/serve.log"
  no_shell_command "${bin}"
  # exec: the PID is the launcher's JVM, whose shutdown hook stops the room it started.
  (cd "${ROOT}" && exec "${no_shell_run[@]}" room serve --port 0 --dir "${dir}/live" --code sesame >"${log}" 2>&1) &
  room_pid=$!
  url="$(room_address "${log}" "${room_pid}")"
  if [[ -n "${url}" ]] && no_shell "${bin}" handin ada --root "${dir}/learner" --to "${url}" --code sesame >/dev/null 2>&1 \
     && [[ -f "${dir}/live/ada.json" ]]; then
    pass "jbang room serve and jbang handin ada --to URL, no shell: the live room keeps the hand-in"
  else
    fail "the live room with no shell did not take a hand-in (see ${log})"
  fi
  stop_room

  out="$(cd "${ROOT}/scripts" && no_shell "${bin}" bench 03 --smoke --out "${dir}/bench-03.json" 2>&1)" && status=0 || status=$?
  if [[ ${status} -le 1 ]] && grep -q '"bombardier" *: *"bombardier version' "${dir}/bench-03.json" 2>/dev/null; then
    pass "jbang bench 03 --smoke from scripts/, no shell: finds Bombardier in .tools/bin and races (exit ${status})"
  else
    fail "jbang bench 03 --smoke with no shell exits ${status}: $(tail -n 3 <<<"${out}" | tr '\n' ' ')"
  fi
  rm -rf "${dir}"
}

# Runs a catalog alias as a machine with no shell would: PATH is folder $1 (only java in it) and
# JBang is the Java launcher; the environment is cleared but for what JBang and the leftover check need.
no_shell() {
  no_shell_command "$1"
  shift
  "${no_shell_run[@]}" "$@"
}

# no_shell_run: the command no_shell runs, for PATH folder $1.
no_shell_run=()
no_shell_command() {
  no_shell_run=(env -i HOME="${HOME}" PATH="$1" JAVA_HOME="${JAVA_HOME}" COURSE_TEST_RUN="${COURSE_TEST_RUN}")
  if [[ -n "${JBANG_DIR:-}" ]]; then no_shell_run+=(JBANG_DIR="${JBANG_DIR}"); fi
  if [[ -n "${JBANG_REPO:-}" ]]; then no_shell_run+=(JBANG_REPO="${JBANG_REPO}"); fi
  if [[ -n "${COURSE_TOOLS_DIR:-}" ]]; then no_shell_run+=(COURSE_TOOLS_DIR="${COURSE_TOOLS_DIR}"); fi
  no_shell_run+=("$1/java" "${ROOT}/scripts/tools/jbang/JBang.java")
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
