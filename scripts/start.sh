#!/usr/bin/env bash
#
# One command to start the course: finds or installs the tools, then serves the course site
# at http://127.0.0.1:1313 and says what to do next. Ctrl-C stops it; nothing stays running.
#
# Usage: scripts/start.sh [--port P]

set -o errexit -o nounset -o pipefail

# shellcheck source=scripts/setup.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh"

usage() {
  cat <<'USAGE'
usage: scripts/start.sh [--port P]

Finds or installs Java 25, JBang, Hugo and Asciidoctor (scripts/setup.sh), then serves the
course at http://127.0.0.1:1313 (or port P). Ctrl-C stops it.
USAGE
}

port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

next_steps() {
  local port="$1" jbang_cmd="jbang" first number
  # The first chapter's exercise, whatever it is called (the registry, site/data/course.json, names it too).
  first="$(cd "${ROOT}" && compgen -G 'exercises/[0-9][0-9]-*.java' | sort | head -n 1)"
  number="$(basename "${first}")"
  number="${number%%-*}"
  if ! PATH="${SETUP_USER_PATH}" command -v jbang >/dev/null 2>&1; then
    jbang_cmd="${JBANG#"${ROOT}"/}"   # not on this shell's PATH (new terminals find it: put_jbang_on_path)
  fi
  cat <<NEXT

  The course:   http://127.0.0.1:${port}/
  Chapter ${number}:   ${jbang_cmd} ${first}
  Grade it:     scripts/check.sh ${number} --watch
  Race it:      scripts/bench.sh ${number}          (your results then show on the chapter's page)
NEXT
  if [[ "${jbang_cmd}" != "jbang" ]]; then
    # shellcheck disable=SC2016  # $PATH is for the reader to type
    if course_launcher "${HOME}/.local/bin/jbang"; then
      printf '  (new terminals find plain "jbang"; in this one, type: export PATH="$HOME/.local/bin:$PATH")\n'
    else
      printf '  (to type plain "jbang": export PATH="%s:$PATH")\n' "${TOOLS}/bin"
    fi
  fi
  printf '\n  Ctrl-C stops the site.\n\n'
}

main() {
  local port=1313
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --port) port="${2:?--port needs a number}"; shift ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  setup_java || exit 2
  setup_jbang || exit 2
  put_jbang_on_path || true
  setup_hugo || exit 2
  setup_asciidoctor || exit 2
  if port_busy "${port}"; then
    echo "start: port ${port} on 127.0.0.1 is in use (another hugo server?): stop it, or run scripts/start.sh --port 1314" >&2
    exit 2
  fi
  next_steps "${port}"
  exec "${ROOT}/scripts/site.sh" serve --port "${port}"
}

main "$@"
