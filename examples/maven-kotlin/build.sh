#!/usr/bin/env bash
# examples/maven-kotlin/build.sh [MAVEN ARGS...]: the example's build through the Maven wrapper
# (default `verify`). The wrapper's Maven is pinned here, and only here: the wrapper's files are
# generated on first use rather than committed, because its properties file names the download
# address of the distribution. Needs a `mvn` on PATH once, to generate them. Honours
# MAVEN_REPO_LOCAL (Maven's local repository) as scripts/setup.sh does.
set -euo pipefail
maven_version=3.9.11
wrapper_plugin_version=3.3.4
cd "$(dirname "${BASH_SOURCE[0]}")"
repo_args=()
if [ -n "${MAVEN_REPO_LOCAL:-}" ]; then
  repo_args=("-Dmaven.repo.local=${MAVEN_REPO_LOCAL}")
fi
if [ ! -x mvnw ] || ! grep -q "apache-maven/${maven_version}/" .mvn/wrapper/maven-wrapper.properties 2>/dev/null; then
  mvn -B -q -N ${repo_args[@]+"${repo_args[@]}"} \
    "org.apache.maven.plugins:maven-wrapper-plugin:${wrapper_plugin_version}:wrapper" \
    -Dmaven="${maven_version}" -Dtype=only-script
fi
if [ $# -eq 0 ]; then
  set -- verify
fi
exec ./mvnw -B ${repo_args[@]+"${repo_args[@]}"} "$@"
