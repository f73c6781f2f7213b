# shellcheck shell=bash
#
# The self-test's own tools (scripts/test.sh sources it): finds, or installs from the package
# registries, shellcheck, and the browser that scripts/test/browser.mjs drives and the library
# that drives it. A learner never needs these, so scripts/setup.sh does not know them.
#
#   source scripts/test/tools.sh && setup_shellcheck && setup_browser
#
# setup_shellcheck: shellcheck on PATH (apt-get installs it when this runs as root).
# setup_browser: CHROME = a Chrome or Chromium binary, PLAYWRIGHT_DIR = a folder whose
# node_modules holds playwright-core (which drives that browser and downloads none). Silent when
# both are there; on failure one sentence on stderr that says how to fix it, and return 2.
# Installed into .tools/browser (git-ignored), or $COURSE_TOOLS_DIR/browser.

# TOOLS and setup_say come from scripts/setup.sh; source it unless the caller already has.
if ! declare -F setup_say >/dev/null; then
  # shellcheck source=scripts/setup.sh
  source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/setup.sh"
fi

readonly PLAYWRIGHT_VERSION=1.65.1

setup_shellcheck() {
  if ! command -v shellcheck >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    setup_say "installing shellcheck with apt-get (once)"
    apt-get install -y -qq shellcheck >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq shellcheck >/dev/null 2>&1; } || true
  fi
  if ! command -v shellcheck >/dev/null 2>&1; then
    echo "setup: shellcheck is not installed: 'apt-get install shellcheck', 'brew install shellcheck', or 'scoop install shellcheck'" >&2
    return 2
  fi
}

# A Chrome or Chromium to drive: $CHROME, else the usual names (Linux packages, macOS apps).
find_chrome() {
  local candidate
  for candidate in "${CHROME:-}" /usr/bin/chromium chromium chromium-browser google-chrome google-chrome-stable \
                   "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
                   "/Applications/Chromium.app/Contents/MacOS/Chromium"; do
    if [[ "${candidate}" == */* && -x "${candidate}" ]]; then
      CHROME="${candidate}"
      return 0
    elif [[ -n "${candidate}" && "${candidate}" != */* ]] && command -v "${candidate}" >/dev/null 2>&1; then
      CHROME="$(command -v "${candidate}")"
      return 0
    fi
  done
  return 1
}

setup_browser() {
  if ! find_chrome; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
      setup_say "installing chromium with apt-get (once)"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 \
             && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } || true
    fi
    if ! find_chrome; then
      echo "setup: no Chrome or Chromium for the browser tests: 'apt-get install chromium', 'brew install --cask chromium', or set CHROME to the browser's binary" >&2
      return 2
    fi
  fi
  if ! command -v npm >/dev/null 2>&1 \
     || ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' >/dev/null 2>&1; then
    echo "setup: the browser tests need Node.js 20 or newer with npm: 'apt-get install nodejs npm', 'brew install node', or https://nodejs.org/" >&2
    return 2
  fi
  PLAYWRIGHT_DIR="${TOOLS}/browser"
  if ! grep -qs "\"version\": \"${PLAYWRIGHT_VERSION}\"" "${PLAYWRIGHT_DIR}/node_modules/playwright-core/package.json"; then
    setup_say "installing playwright-core ${PLAYWRIGHT_VERSION} from npm into ${PLAYWRIGHT_DIR} (once; no browser download)"
    mkdir -p "${PLAYWRIGHT_DIR}"
    # --prefer-offline: from npm's own cache when it holds this version, without asking the
    # registry again (on the 2-core machine a fresh clone's install took 71 s without it, 1 s with).
    if ! npm install --prefix "${PLAYWRIGHT_DIR}" --no-audit --no-fund --prefer-offline "playwright-core@${PLAYWRIGHT_VERSION}" \
         >"${TOOLS}/browser-install.log" 2>&1; then
      echo "setup: could not install playwright-core from npm (see ${TOOLS}/browser-install.log): 'npm install --prefix ${PLAYWRIGHT_DIR} playwright-core@${PLAYWRIGHT_VERSION}'" >&2
      return 2
    fi
  fi
  export CHROME PLAYWRIGHT_DIR
}
