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

# The absolute form of path $1, relative to the caller's directory (it may not exist yet).
absolute() {
  case "$1" in
    /*) echo "$1" ;;
    *) echo "${PWD}/$1" ;;
  esac
}

build() {
  if [[ $# -gt 1 ]]; then
    usage >&2
    exit 2
  fi
  local dest log status=0
  dest="$(absolute "${1:-${ROOT}/public}")"
  # Hugo empties DIR first (--cleanDestinationDir): only a new or empty folder, or an earlier build.
  if [[ "${ROOT}/" == "${dest%/}/"* ]] \
     || { [[ -d "${dest}" && -n "$(ls -A "${dest}")" && ! -f "${dest}/index.html" ]]; }; then
    echo "site: ${dest} is not empty and holds no earlier build: give a new or empty folder" >&2
    exit 2
  fi
  log="$(mktemp)"
  "${HUGO}" --source "${ROOT}" --destination "${dest}" --cleanDestinationDir --logLevel warn \
    >"${log}" 2>&1 || status=$?
  # Asciidoctor reports a missing include or tag as a warning, and Hugo may go on: any warning
  # or error line fails the build.
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
      --port)
        if [[ $# -lt 2 || ! "$2" =~ ^[0-9]+$ ]]; then
          echo "site: --port needs a number" >&2
          exit 2
        fi
        port="$2"
        shift ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  # The learner's own results (check.sh and bench.sh write .results/) are served at /results/,
  # here only: a built copy for hosting carries no one's results.
  mkdir -p "${ROOT}/.results/checks" "${ROOT}/.results/bench" "${ROOT}/.results/site"
  # The list the pages read; check.sh and bench.sh rewrite it with each result.
  [[ -f "${ROOT}/.results/site/results.json" ]] || echo '[]' >"${ROOT}/.results/site/results.json"
  local config
  config="${ROOT}/.results/serve.toml"
  cat >"${config}" <<'TOML'
# Written by scripts/site.sh serve: the site's static files, plus .results/ at /results/.
[[module.mounts]]
  source = 'site/static'
  target = 'static'
[[module.mounts]]
  source = '.results'
  target = 'static/results'
TOML
  # Hugo runs in the foreground in place of this script: Ctrl-C stops it, and nothing else
  # was started. It renders from memory, and needs no network.
  exec "${HUGO}" server --source "${ROOT}" --config "${ROOT}/hugo.toml,${config}" --bind 127.0.0.1 --port "${port}" \
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
