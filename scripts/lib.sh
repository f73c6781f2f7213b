# shellcheck shell=bash
#
# What the command scripts share besides finding tools (scripts/setup.sh does that, and this
# file sources it): running the JBang program a script wraps, and parsing a wrapper's
# arguments. Sourced, not run:
#
#   source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
#
# Functions:
#   java_wrapper_setup NARGS      usage when called with no arguments, else Java 25 and JBang, or exit 2
#   run_and_wait CMD ARG...       runs CMD so that Ctrl-C and every exit stop it; exits with its status
#   exec_program FILE ARG...      Java 25 and JBang (or exit 2), then becomes JBang running FILE --root ROOT ARG...
#   course_program FILE           PROGRAM = how to run the course's JBang program FILE: straight on the JVM
#                                 when a launch of the same sources was recorded, else through JBang

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

# The start of a script that wraps a JBang program: called with no arguments (NARGS 0) it
# prints the script's usage and exits 2; else it finds Java 25 and JBang, or exits 2.
java_wrapper_setup() {
  if [[ "$1" -eq 0 ]]; then
    usage >&2
    exit 2
  fi
  setup_java || exit 2
  setup_jbang || exit 2
}

# Runs a command (a JBang program) in the background and waits for it, so that the EXIT trap
# stops it by PID on every path, Ctrl-C included; its Java shutdown hooks then stop whatever
# servers or load it started. Exits with the command's status. For scripts that end with it.
background_pid=""

# shellcheck disable=SC2317  # called by the EXIT trap
stop_background() {
  if [[ -n "${background_pid}" ]] && kill -0 "${background_pid}" 2>/dev/null; then
    kill "${background_pid}" 2>/dev/null || true
    wait "${background_pid}" 2>/dev/null || true
  fi
}

run_and_wait() {
  trap stop_background EXIT
  trap 'exit 130' INT TERM
  "$@" &
  background_pid=$!
  local status=0
  wait "${background_pid}" || status=$?
  background_pid=""
  exit "${status}"
}

# Sets the array PROGRAM to the command that runs the course's JBang program FILE (a path from the
# root): the java command JBang ran for the same sources last time (LaunchRecord.java writes it;
# its name holds a hash of every .java under scripts/, this JDK and this JBang) when each file it
# names is still there, which skips JBang's own JVM (about 1.2 s); else JBang, asked to record one.
# The program must call LaunchRecord.write first in its main; one that does not always runs via JBang.
# shellcheck disable=SC2034  # PROGRAM is the result, read by the script that sourced this one
course_program() {
  local file="$1" key record line
  PROGRAM=("${JBANG}" "${ROOT}/${file}")
  unset COURSE_LAUNCH_RECORD
  case "$(uname -s 2>/dev/null)" in MINGW* | MSYS* | CYGWIN*) return 0 ;; esac
  key="$(sources_key)" || return 0
  record="${ROOT}/.results/launch/$(basename "${file}" .java)-${key}"
  if [[ -f "${record}" ]]; then
    local recorded=() usable=1 next_is_path=0 entry
    while IFS= read -r line; do recorded+=("${line}"); done <"${record}"
    [[ ${#recorded[@]} -ge 2 && -x "${recorded[0]}" ]] || usable=0
    for line in "${recorded[@]}"; do
      if [[ ${next_is_path} -eq 1 ]]; then
        local rest="${line}:"
        while [[ -n "${rest}" ]]; do
          entry="${rest%%:*}"
          rest="${rest#*:}"
          [[ -z "${entry}" || -e "${entry}" ]] || usable=0
        done
      fi
      next_is_path=0
      case "${line}" in -classpath | -cp | --class-path) next_is_path=1 ;; esac
    done
    if [[ ${usable} -eq 1 ]]; then
      PROGRAM=("${recorded[@]}")
      return 0
    fi
  fi
  # Records of this program's older sources are of no more use.
  find "${ROOT}/.results/launch" -name "$(basename "${file}" .java)-*" ! -path "${record}" -delete 2>/dev/null || true
  export COURSE_LAUNCH_RECORD="${record}"
}

# A short hash of every .java file under scripts/ (names and contents), the JDK and JBang; fails
# where no sha256 tool is found.
sources_key() {
  local hasher=()
  if command -v sha256sum >/dev/null 2>&1; then hasher=(sha256sum)
  elif command -v shasum >/dev/null 2>&1; then hasher=(shasum -a 256)
  else return 1
  fi
  {
    printf '%s\n' "${JAVA_HOME:-}" "${JBANG}"
    find "${ROOT}/scripts" -name '*.java' -type f | LC_ALL=C sort | while IFS= read -r f; do
      printf '%s\n' "${f#"${ROOT}"/}"
      cat "${f}"
    done
  } | "${hasher[@]}" | cut -c1-16
}

# Finds Java 25 and JBang, or exits 2; then this shell becomes JBang running the course's program
# FILE (a path from the root) with --root and the arguments, so Ctrl-C or a kill by this PID
# stops the program itself.
exec_program() {
  setup_java || exit 2
  setup_jbang || exit 2
  local file="$1"
  shift
  exec "${JBANG}" "${ROOT}/${file}" --root "${ROOT}" "$@"
}
