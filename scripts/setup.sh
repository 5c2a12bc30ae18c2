#!/usr/bin/env bash
# Installs everything the generator, the host and their tests need, into the project and nowhere
# else that matters: a virtual environment in .venv (Python packages, pinned), the Playwright Java
# JAR in Maven's local repository (through mvn, whose own settings decide where it comes from),
# node_modules (npm ci, pinned by package-lock.json), and Debian's chromium for the browser tests.
# Nothing relies on what happens to be installed globally besides python3, a JDK with mvn, Node.js
# with npm and apt-get. Safe to rerun; each step is skipped when already satisfied.
set -euo pipefail
cd "$(dirname "$0")/.."

# One line per step, so a first run (half a minute and more) is never silent; SETUP_QUIET=1 mutes.
step() { [ -n "${SETUP_QUIET:-}" ] || echo "setup: $*"; }

venv=.venv
python=${venv}/bin/python
requirements_stamp=${venv}/.installed-from

if [ ! -x "${python}" ]; then
  step "creating the virtual environment ${venv}"
  python3 -m venv "${venv}"
fi
# The stamp records what was installed; a change of pyproject.toml reinstalls.
wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "${requirements_stamp}" ] || [ "$(cat "${requirements_stamp}")" != "${wanted}" ]; then
  # pip and the build backend are chatty; their output is kept, and shown only when they fail.
  step "installing the pinned Python packages into ${venv} (a minute or two the first time)"
  log=${venv}/pip-install.log
  if ! { "${python}" -m pip install --quiet --disable-pip-version-check "pip==26.3" &&
         "${python}" -m pip install --quiet --disable-pip-version-check -e ".[test]"; } > "${log}" 2>&1; then
    cat "${log}" >&2
    echo "setup.sh: installing the Python packages into ${venv} failed (log above, also in ${log})" >&2
    exit 1
  fi
  echo "${wanted}" > "${requirements_stamp}"
else
  step "Python packages in ${venv}: up to date"
fi
# The project's own modules, compiled now: pip compiles the packages it installs but not an
# editable project, and where PYTHONDONTWRITEBYTECODE is set every run would compile them again
# (a tenth of a one-line regeneration). Quick when nothing changed; stale files recompile on import.
"${python}" -m compileall -q generator host >/dev/null

# The pinned Playwright JAR (and its sources JAR, when published) into Maven's local repository:
# MAVEN_REPO_LOCAL, else $HOME/.m2/repository, named explicitly by the resolver because Java takes
# the home folder from the password database, not from $HOME. The generator's own resolver does
# it, so a release whose parent POM is not published is fetched by its coordinates as well.
step "the pinned Playwright JAR in Maven's local repository (fetched through mvn if missing)"
if ! "${python}" -m generator.commands.resolve_jar >/dev/null; then
  echo "setup.sh: the pinned Playwright JAR could not be fetched (above)" >&2
  exit 1
fi

if [ "${1:-}" = "--with-test-tools" ]; then
  if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.setup-lock; then
    step "installing node_modules (npm ci, pinned by package-lock.json)"
    npm ci --no-audit --no-fund --silent
    cp package-lock.json node_modules/.setup-lock
  else
    step "node_modules: up to date"
  fi
  # chromium, the hosts' default browser; chromium-headless-shell, the same Chromium built for
  # headless use only, which Playwright itself launches for headless Chromium and which most
  # browser tests run (a third of the CPU per page: tests/conftest.py); xvfb for the test that
  # runs headed (--headed); ffmpeg for --save-video (Playwright cannot download its own here);
  # chromium-driver for the Selenium Grid of scripts/grid.sh (which fetches the grid through mvn).
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ] || [ ! -x /usr/bin/Xvfb ] \
    || [ ! -x /usr/bin/ffmpeg ] || [ ! -x /usr/bin/chromedriver ]; then
    step "installing Debian's chromium, chromium-headless-shell, chromium-driver, xvfb and ffmpeg (apt-get)"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell \
      chromium-driver xvfb ffmpeg >/dev/null
  else
    step "Debian's chromium and the test tools: installed"
  fi
fi
