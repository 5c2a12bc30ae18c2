#!/usr/bin/env bash
# The CI job of docs/ci.md as one script, for a repository that uses the generator: install the
# generator into a virtual environment of its own, then fail (exit 1, with the diff and the command
# that fixes it) when the generated tools are stale. The options come from the allowlist's
# `generate:` block, so this check, the build and the pre-commit hook cannot disagree.
#   GENERATOR  what pip installs the generator from: a path or a pinned requirement (required)
#   ALLOWLIST  the allowlist (default allowlist.yaml); extra arguments go to the generator
# Cache between runs: Maven's local repository (~/.m2/repository) and
# $PLAYWRIGHT_TOOL_GENERATOR_CACHE (reflection, the pin's Python API, renderings).
set -euo pipefail
: "${GENERATOR:?set GENERATOR to what pip installs the generator from (a path or a pinned requirement)}"
allowlist=${ALLOWLIST:-allowlist.yaml}
venv=${GENERATOR_VENV:-.generator-venv}
export PLAYWRIGHT_TOOL_GENERATOR_CACHE=${PLAYWRIGHT_TOOL_GENERATOR_CACHE:-${HOME}/.cache/playwright-tool-generator}
[ -x "${venv}/bin/python" ] || python3 -m venv "${venv}"
"${venv}/bin/python" -m pip install --quiet --disable-pip-version-check "${GENERATOR}"
exec "${venv}/bin/python" -m generator --check --allowlist "${allowlist}" "$@"
