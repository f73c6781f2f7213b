#!/usr/bin/env bash
#
# Warms every cache the course needs, so that a workshop room needs no network, then proves it.
#
# Usage: scripts/prefetch.sh            warm the caches (needs the network once), then prove it
#        scripts/prefetch.sh --check    prove it only, warming and installing nothing (in the room)
#
# Warms: scripts/setup.sh finds or installs the tools into .tools/; then "jbang build" compiles
# every JBang script the course runs (exercises/NN-*.java, solutions/NN-*.java,
# exercises/demos/*.java, and each scripts/*/*.java whose first line is JBang's), which puts
# its //DEPS in the Maven cache (~/.m2/repository, or $JBANG_REPO) and its jar in JBang's
# cache (~/.jbang, or $JBANG_DIR).
# Proves: every one of them builds again with "jbang --offline build" (and, where
# "unshare --net" works, with no network at all), the site builds, and every tool is there.
# Starts no servers.
# Exit status: 0 the room needs no network, 1 something is not cached, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

scratch=""
files=()      # the JBang scripts, relative to ROOT
isolate=()    # the command that cuts the network for the proof, if this system has one
built=0       # scripts that built offline
uncompiled=() # exercises whose dependencies are cached but which do not compile (a learner's edit)
problems=0

usage() {
  cat <<'USAGE'
usage: scripts/prefetch.sh            warm every cache the course needs, then prove it offline
       scripts/prefetch.sh --check    prove it only (no downloads, no installs): run it in the room

Warms: the tools (scripts/setup.sh, into .tools/), and every JBang script of the course with
"jbang build" (its //DEPS into ~/.m2/repository, its jar into ~/.jbang).
Proves: each script builds with "jbang --offline build", the site builds, each tool is there.
Exit status: 0 the room needs no network, 1 something is not cached, 2 usage or a missing tool.
USAGE
}

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [[ -n "${scratch}" ]]; then
    rm -rf "${scratch}"
  fi
}

# One line of the report: a word, then the rest.
report() {
  printf '  %-8s %s\n' "$1" "$2"
}

problem() {
  report "$1" "$2"
  problems=$((problems + 1))
}

# Every JBang script the course runs, into files[]: new chapters and demos join by themselves.
find_scripts() {
  local file
  for file in "${ROOT}"/exercises/[0-9][0-9]-*.java "${ROOT}"/solutions/[0-9][0-9]-*.java \
              "${ROOT}"/exercises/demos/*.java "${ROOT}"/scripts/*/*.java "${ROOT}"/scripts/*/*/*.java; do
    [[ -f "${file}" ]] || continue
    case "${file}" in
      "${ROOT}"/scripts/*)
        # Only the entry points: the files they include with //SOURCES are built with them.
        [[ "$(head -n 1 "${file}")" == '///usr/bin/env jbang'* ]] || continue ;;
    esac
    files+=("${file#"${ROOT}"/}")
  done
}

# Whether a compile error in file $1 is the learner's: an exercise, or a file that includes one
# with //SOURCES (chapter 06's exercises/demos/HybridHandlerTests.java includes ../06-netty-hybrid.java).
learners() {
  [[ "$1" == exercises/[0-9][0-9]-* ]] || grep -q '^//SOURCES .*\.\./[0-9][0-9]-[^ ]*\.java' "${ROOT}/$1"
}

# In the room, a tool that is missing cannot be installed: say so, instead of trying.
tools_present() {
  local missing=()
  setup_java || return 2
  find_jbang || missing+=(JBang)
  find_hugo || missing+=(Hugo)
  asciidoctor_works || missing+=("Asciidoctor with Rouge")
  find_bombardier || missing+=(Bombardier)
  find_vegeta || missing+=(Vegeta)
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "prefetch: not installed here: ${missing[*]}; run scripts/prefetch.sh once where there is a network (scripts/doctor.sh says how to install each by hand)" >&2
    return 2
  fi
}

# One line that says why a build failed, from its log ($1).
why() {
  local log="$1" line
  if grep -q 'No suitable JDK' "${log}"; then
    echo "JBang knows no JDK 25: set JAVA_HOME to a JDK 25, or run 'jbang jdk install 25 PATH-TO-THE-JDK'"
  elif grep -q 'Error during compile' "${log}"; then
    line="$(grep -m 1 ': error: ' "${log}" || echo 'see the compiler output')"
    echo "does not compile: ${line#"${ROOT}"/}"
  elif line="$(grep -m 1 -E 'Could not (read artifact descriptor|resolve|find artifact|transfer)' "${log}")"; then
    echo "not in the Maven cache (${JBANG_REPO:-${HOME}/.m2/repository}): ${line#*\[ERROR\] }"
  else
    line="$(grep -m 1 '\[ERROR\]' "${log}" || tail -n 1 "${log}")"
    echo "${line#*\[ERROR\] }"
  fi
}

warm() {
  local file log="${scratch}/warm.log"
  echo "prefetch: warming the caches: jbang build, dependencies into ${JBANG_REPO:-${HOME}/.m2/repository}, jars into ${JBANG_DIR:-${HOME}/.jbang}"
  for file in "${files[@]}"; do
    if "${JBANG}" build "${ROOT}/${file}" </dev/null >"${log}" 2>&1; then
      report "built" "${file}"
    elif learners "${file}" && grep -q 'Error during compile' "${log}"; then
      report "fetched" "${file} ($(why "${log}"))"
    else
      report "FAILED" "${file}: $(why "${log}")"
    fi
  done
  # The grader records how its JVM starts (scripts/lib.sh course_program), so that even the
  # first check.sh of the day starts it without JBang's own JVM first.
  "${ROOT}/scripts/check.sh" --help </dev/null >/dev/null 2>&1 || true
}

# Cuts the network for the proof where the system can (Linux with user namespaces), so that
# "offline" is tested, not promised. Elsewhere JBang's --offline is the proof.
pick_isolation() {
  if command -v unshare >/dev/null 2>&1; then
    if unshare --map-current-user --net true 2>/dev/null; then
      isolate=(unshare --map-current-user --net)
    elif [[ "$(id -u)" == 0 ]] && unshare --net true 2>/dev/null; then
      isolate=(unshare --net)
    fi
  fi
}

prove_scripts() {
  local file log="${scratch}/prove.log"
  if [[ ${#isolate[@]} -gt 0 ]]; then
    echo "prefetch: proving it with the network cut off (${isolate[*]}): jbang --offline build"
  else
    echo "prefetch: proving it: jbang --offline build (it attempts no connection; this system cannot cut the network for the test)"
  fi
  for file in "${files[@]}"; do
    if "${isolate[@]+"${isolate[@]}"}" "${JBANG}" --offline build "${ROOT}/${file}" </dev/null >"${log}" 2>&1; then
      built=$((built + 1))
      report "ok" "${file}"
    elif learners "${file}" && grep -q 'Error during compile' "${log}"; then
      # Dependencies resolve before javac runs: they are cached; the compile error is the learner's.
      uncompiled+=("${file}")
      report "ok" "${file} (dependencies cached; it $(why "${log}"))"
    elif grep -q 'Error during compile' "${log}"; then
      problem "FAILED" "${file}: $(why "${log}")"
    else
      problem "MISSING" "${file}: $(why "${log}")"
    fi
  done
}

prove_site() {
  local log="${scratch}/site.log"
  if "${isolate[@]+"${isolate[@]}"}" "${ROOT}/scripts/site.sh" build "${scratch}/site" </dev/null >"${log}" 2>&1; then
    report "ok" "the site builds (scripts/site.sh build)"
  else
    problem "FAILED" "the site does not build (scripts/site.sh build):"
    sed 's/^/           /' "${log}"
  fi
}

prove_tools() {
  local name path
  for name in java jbang hugo asciidoctor bombardier vegeta; do
    case "${name}" in
      java) path="${JAVA_HOME}/bin/java" ;;
      jbang) path="${JBANG}" ;;
      hugo) path="${HUGO}" ;;
      asciidoctor) path="asciidoctor" ;;
      bombardier) path="${BOMBARDIER}" ;;
      vegeta) path="${VEGETA}" ;;
    esac
    if path="$(command -v "${path}")"; then
      report "ok" "${name}: ${path}"
    else
      problem "MISSING" "${name}: scripts/setup.sh installs it (with the network), scripts/doctor.sh says how by hand"
    fi
  done
}

summary() {
  local compiled="${built} files cached and built offline"
  if [[ ${#uncompiled[@]} -gt 0 ]]; then
    compiled="${compiled}, ${#uncompiled[@]} cached but not compiling (${uncompiled[*]})"
  fi
  if [[ ${problems} -gt 0 ]]; then
    echo "prefetch: ${problems} problem(s) above (${compiled}): fix what FAILED, run scripts/prefetch.sh where there is a network for what is MISSING, then scripts/prefetch.sh --check" >&2
    exit 1
  fi
  echo "prefetch: ${compiled}; site built offline; tools: java jbang hugo asciidoctor bombardier vegeta; the room needs no network now"
}

main() {
  local check_only=false
  case "${1:-}" in
    --check) check_only=true ;;
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) echo "prefetch: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  if [[ $# -gt 1 ]]; then
    echo "prefetch: one option at most" >&2
    usage >&2
    exit 2
  fi
  if [[ "${check_only}" == true ]]; then
    tools_present || exit 2
  fi
  setup_all || exit 2
  scratch="$(mktemp -d)"
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  find_scripts
  if [[ ${#files[@]} -eq 0 ]]; then
    echo "prefetch: no JBang scripts under ${ROOT}/exercises or ${ROOT}/solutions: run it from a copy of the course" >&2
    exit 2
  fi
  if [[ "${check_only}" == false ]]; then
    warm
  fi
  pick_isolation
  prove_scripts
  prove_site
  prove_tools
  summary
}

main "$@"
