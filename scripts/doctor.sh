#!/usr/bin/env bash
#
# Says what this machine has for the workshop: one line per tool, with a fix when it is
# missing, plus the limits that matter for load tests. Installs nothing.
#
# Usage: scripts/doctor.sh
# The checks are Java (scripts/tools/Doctor.java, also `jbang doctor`); this script only says
# how to get Java 25 and JBang when they are missing, since the Java needs both to run.
# Exit status: 0 ready for the workshop, 2 something the workshop needs is missing.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

problems=0

usage() {
  cat <<'USAGE'
usage: scripts/doctor.sh

One line per tool (found or missing, version, how to fix), then ulimit -n, CPU count and
whether ports 8080 and 1313 are free. Installs nothing; scripts/setup.sh installs.
USAGE
}

line() {
  printf '%-8s %-12s %s\n' "$1" "$2" "$3"
}

ok() {
  line "ok" "$1" "$2"
}

missing() {
  line "missing" "$1" "$2"
  if [[ "${3:-required}" == required ]]; then
    problems=$((problems + 1))
  fi
}

check_java() {
  local plain
  plain="$(java -version 2>&1 | head -n 1 || true)"
  if find_java; then
    ok "java" "$(jdk_major "${JAVA_HOME}") at ${JAVA_HOME}"
    if [[ -n "${plain}" && "${plain}" != *\"25* && "${plain}" != *\"2[6-9]* ]]; then
      line "note" "" "plain 'java' on PATH is ${plain}; the scripts use the JDK above"
    fi
  else
    local older
    older="$(older_java)"
    missing "java" "need a JDK 25+${older:+ (found Java ${older})}: 'jbang jdk install 25' (or .tools/bin/jbang after scripts/setup.sh) needs no admin rights, and the scripts find it in ~/.jbang; or 'sdk install java 25-tem', 'brew install --cask temurin@25', 'scoop install temurin25-jdk'"
  fi
}

check_jbang() {
  if find_jbang; then
    ok "jbang" "$(JAVA_HOME="${JAVA_HOME:-}" "${JBANG}" version 2>/dev/null | head -n 1) at ${JBANG}"
  else
    missing "jbang" "scripts/setup.sh installs it from Maven Central, or 'sdk install jbang', 'brew install jbangdev/tap/jbang', 'scoop install jbang'"
  fi
}

main() {
  case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) usage >&2; exit 2 ;;
  esac
  if find_java && find_jbang; then
    export JAVA_HOME
    exec "${JBANG}" "${ROOT}/scripts/tools/Doctor.java" --root "${ROOT}"
  fi
  check_java
  check_jbang
  printf '\n%d thing(s) to fix above before the other checks can run; scripts/setup.sh installs what it can.\n' "${problems}"
  exit 2
}

main "$@"
