#!/usr/bin/env bash
# Installs everything the generator and its tests need: Python packages, the pinned Playwright
# Java JAR (through mvn, whose own settings decide where it comes from), npm packages, and
# Debian's chromium. Safe to rerun; each step is skipped when already satisfied.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"

version=$(python3 -c 'from generator.allowlist import load_allowlist; from pathlib import Path; print(load_allowlist(Path("allowlist.yaml")).playwright_version)')
for classifier in "" ":jar:sources"; do
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get \
    -Dartifact="com.microsoft.playwright:playwright:${version}${classifier}" -Dtransitive=false
done

if [ "${1:-}" = "--with-test-tools" ]; then
  npm ci --no-audit --no-fund --silent
  if [ ! -x /usr/bin/chromium ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
  fi
fi
