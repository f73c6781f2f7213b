#!/usr/bin/env bash
#
# Builds or serves the course site (Hugo + Asciidoctor).
#
# Usage: scripts/site.sh build [DIR]        build into DIR (default public/); fail on any warning
#        scripts/site.sh serve [--port P]   serve on http://127.0.0.1:P (default 1313) until Ctrl-C
#
# Exit status: 0 ok, 1 the build failed or warned, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

usage() {
  cat <<'USAGE'
usage: scripts/site.sh build [DIR]        build into DIR (default public/); fail on any warning
       scripts/site.sh serve [--port P]   serve on http://127.0.0.1:P (default 1313) until Ctrl-C
USAGE
}

build() {
  local dest="${1:-${ROOT}/public}" log status=0
  log="$(mktemp)"
  "${HUGO}" --source "${ROOT}" --destination "${dest}" --cleanDestinationDir --logLevel warn \
    >"${log}" 2>&1 || status=$?
  if [[ ${status} -ne 0 ]] || grep -Eq 'WARN|ERROR|asciidoctor: (WARNING|ERROR)' "${log}"; then
    echo "site: the build failed or warned:" >&2
    grep -E 'WARN|ERROR|asciidoctor:|Error' "${log}" >&2 || cat "${log}" >&2
    rm -f "${log}"
    return 1
  fi
  rm -f "${log}"
  echo "site: built into ${dest}"
}

serve() {
  local port=1313
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --port) port="${2:?--port needs a number}"; shift ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  # Hugo runs in the foreground: Ctrl-C stops it, and nothing else was started.
  exec "${HUGO}" server --source "${ROOT}" --bind 127.0.0.1 --port "${port}" \
    --baseURL "http://127.0.0.1:${port}/" --disableFastRender --logLevel warn
}

main() {
  local command="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "${command}" in
    build|serve) ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
  setup_hugo || exit 2
  setup_asciidoctor || exit 2
  export HUGO_MARKUP_ASCIIDOCEXT_ATTRIBUTES_REPOROOT="${ROOT}"
  if [[ "${command}" == build ]]; then
    build "$@" || exit 1
  else
    serve "$@"
  fi
}

main "$@"
