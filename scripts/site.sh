#!/usr/bin/env bash
#
# Builds or serves the course site (Hugo + Asciidoctor).
#
# Usage: scripts/site.sh build [DIR]        build into DIR (default public/); fail on any warning
#        scripts/site.sh serve [--port P]   serve on http://127.0.0.1:P (default 1313) until Ctrl-C
#        scripts/site.sh pack [FILE]        the built site as one archive to hand out (default
#                                           course-site.tar.gz): it reads opened from a folder
#                                           (file://) or served by anything, no Hugo, no Ruby
#
# Exit status: 0 ok, 1 the build failed or warned, 2 usage or a missing tool.

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

usage() {
  cat <<'USAGE'
usage: scripts/site.sh build [DIR]        build into DIR (default public/); fail on any warning
       scripts/site.sh serve [--port P]   serve on http://127.0.0.1:P (default 1313) until Ctrl-C
       scripts/site.sh pack [FILE] [--from DIR]
                                          the site as one archive that reads from a folder (default
                                          course-site.tar.gz); --from packs DIR, an earlier build, instead of building
USAGE
}

# The absolute form of path $1, relative to the caller's directory (it may not exist yet).
absolute() {
  case "$1" in
    /*) echo "$1" ;;
    *) echo "${PWD}/$1" ;;
  esac
}

# The figures of the committed runs as AsciiDoc attributes (site/generated/figures.adoc, which
# pages include as {figures}), and no page quoting one as a literal: scripts/site/Figures.java.
figures() {
  setup_java >/dev/null || return 2
  setup_jbang >/dev/null || return 2
  "${JBANG}" "${ROOT}/scripts/site/Figures.java" "${ROOT}" >/dev/null
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
  figures || { echo "site: the pages' figures (above) stop the build" >&2; return 1; }
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

# The built site as an archive with one folder, course-site/. Its links are relative already
# (relativeURLs); a link to a folder gets its index.html, which a browser opening files from
# disk does not add. The interactive parts need JavaScript modules, which browsers run only
# for pages served over HTTP: from a folder, pages read as they do without JavaScript.
pack() {
  local out="" from="" work
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --from)
        if [[ $# -lt 2 || ! -f "$2/index.html" ]]; then
          echo "site: --from needs a folder that holds a build (scripts/site.sh build DIR)" >&2
          exit 2
        fi
        from="$2"
        shift ;;
      *)
        if [[ -n "${out}" ]]; then
          usage >&2
          exit 2
        fi
        out="$1" ;;
    esac
    shift
  done
  out="$(absolute "${out:-course-site.tar.gz}")"
  work="$(mktemp -d)"
  if [[ -n "${from}" ]]; then
    cp -R "${from}" "${work}/course-site"
  else
    build "${work}/course-site" >/dev/null || { rm -rf "${work}"; return 1; }
  fi
  find "${work}/course-site" -name '*.html' -exec sed -E -i \
    -e 's#(href="[^":?]*/)"#\1index.html"#g' -e 's#(href="[^":?]*/)\##\1index.html\##g' {} +
  tar -czf "${out}" -C "${work}" course-site
  rm -rf "${work}"
  echo "site: packed into ${out} ($(du -h "${out}" | cut -f1)): unpack it anywhere, open course-site/index.html"
  echo "site: to make the grader's links open it, set COURSE_SITE=file:///path/to/course-site/ before scripts/check.sh"
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
  # The learner's own results (check.sh and bench.sh write .results/checks, bench and timeline)
  # are served at /results/, here only: a built copy for hosting carries no one's results.
  mkdir -p "${ROOT}/.results/checks" "${ROOT}/.results/bench" "${ROOT}/.results/timeline" "${ROOT}/.results/site"
  # The list the pages read; check.sh and bench.sh rewrite it with each result.
  [[ -f "${ROOT}/.results/site/results.json" ]] || echo '[]' >"${ROOT}/.results/site/results.json"
  # (A page that refers to a new figure needs this again: restart serve.)
  figures || exit 1
  local config
  config="${ROOT}/.results/serve.toml"
  cat >"${config}" <<'TOML'
# Written by scripts/site.sh serve: the site's static files, plus the learner's gradings, races
# timelines and their list (.results/checks, bench, timeline and site) at /results/: nothing else of .results/ (the
# room's tokens in room.json, logs, launch records) is served.
[[module.mounts]]
  source = 'site/static'
  target = 'static'
[[module.mounts]]
  source = '.results/checks'
  target = 'static/results/checks'
[[module.mounts]]
  source = '.results/bench'
  target = 'static/results/bench'
[[module.mounts]]
  source = '.results/timeline'
  target = 'static/results/timeline'
[[module.mounts]]
  source = '.results/site'
  target = 'static/results/site'
TOML
  # The grader's links go to this port (scripts/checks/Grade.java reads it).
  printf 'http://127.0.0.1:%s/\n' "${port}" >"${ROOT}/.results/served-at"
  # Hugo runs in the foreground in place of this script: Ctrl-C stops it, and nothing else
  # was started. It renders from memory, and needs no network.
  exec "${HUGO}" server --source "${ROOT}" --config "${ROOT}/hugo.toml,${config}" --bind 127.0.0.1 --port "${port}" \
    --baseURL "http://127.0.0.1:${port}/" --disableFastRender --logLevel warn
}

main() {
  local command="${1:-}"
  [[ $# -gt 0 ]] && shift
  case "${command}" in
    build|serve|pack) ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
  setup_hugo || exit 2
  setup_asciidoctor || exit 2
  export HUGO_MARKUP_ASCIIDOCEXT_ATTRIBUTES_REPOROOT="${ROOT}"
  export HUGO_MARKUP_ASCIIDOCEXT_ATTRIBUTES_FIGURES="${ROOT}/site/generated/figures.adoc"
  case "${command}" in
    build) build "$@" || exit 1 ;;
    pack) pack "$@" || exit 1 ;;
    *) serve "$@" ;;
  esac
}

main "$@"
