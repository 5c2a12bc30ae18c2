#!/usr/bin/env bash
# scripts/kotlin-check.sh DIR [EXTRA.kt ...]: compile every generated .kt under DIR (python -m
# generator --outputs ...,trailblaze writes them under <out>/trailblaze/kotlin) with the Kotlin
# compiler and the kotlinx-serialization plugin, against the real Playwright JAR (the one the
# generator resolves: `python -m generator.commands.resolve_jar`, which fetches a release whose parent POM
# is not published by its coordinates; PLAYWRIGHT_VERSION=X.Y.Z takes a fully published release by
# its coordinates instead, with its driver, so that the classes can also run), its API's own compile
# dependencies, koog's real `agents-tools` (LLMDescription) and kotlinx-serialization, and the
# stand-ins of Trailblaze's own unpublished types in scripts/kotlin-check/<api>/ (TRAILBLAZE_API,
# default 2026.07.21: see generator/render/kotlin/trailblaze_api.py). Prints `compiled N files` (N: the files
# under DIR) and exits non-zero on any compiler error. With KOTLIN_CHECK_CLASSES=DIR the classes
# are kept there and the runtime classpath is written to DIR.classpath (for a test that runs a
# shim). Everything is fetched through mvn (pinned versions) into Maven's local repository
# (MAVEN_REPO_LOCAL, else $HOME/.m2/repository), as scripts/setup.sh does; each classpath Maven
# resolves is kept there too (.kotlin-check/), and reused while every file it lists exists.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/kotlin-check.sh DIR [EXTRA.kt ...] (DIR: a folder holding generated .kt files)" >&2
  exit 2
fi
dir=$1
shift
extra=("$@")
api=${TRAILBLAZE_API:-2026.07.21}
api=${api%%+*}  # a patched setting (2026.07.21+map-json) uses its release's stand-ins
if [ ! -d "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kotlin-check/${api}" ]; then
  echo "kotlin-check.sh: TRAILBLAZE_API=${api} has no stand-ins in scripts/kotlin-check/; use one of: $(ls "$(dirname "${BASH_SOURCE[0]}")/kotlin-check" | tr '\n' ' ')" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "${here}")
kotlin_version=2.2.20
serialization_version=1.9.0
python=${PYTHON:-${root}/.venv/bin/python}
# The JAR itself, not its POM: Maven cannot read the POM of a release whose parent POM is missing.
playwright_dep=""
if [ -n "${PLAYWRIGHT_VERSION:-}" ]; then
  playwright_jar=""
  playwright_dep="<dependency><groupId>com.microsoft.playwright</groupId><artifactId>playwright</artifactId><version>${PLAYWRIGHT_VERSION}</version></dependency>"
elif ! playwright_jar=$(cd "${root}" && "${python}" -m generator.commands.resolve_jar); then
  echo "kotlin-check.sh: the Playwright JAR could not be resolved (above)" >&2
  exit 3
fi
# What Playwright's API names in its signatures, at the versions its parent POM pins: Gson, and
# JSpecify's nullness annotations (from 1.63).
gson_version=2.14.0
jspecify_version=1.0.0
# koog's tools API, as Trailblaze pins it (gradle/libs.versions.toml: koog = "1.0.0").
koog_version=1.0.0
maven_repo=${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}
# The JVMs here are short-lived: the client compiler alone and one GC thread halve their CPU
# (kotlinc over the 170 shims: 58 CPU-s against 112), which matters where checks run side by side.
short_jvm="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

work=$(mktemp -d)
trap 'rm -rf "${work}"' EXIT

# Two classpaths resolved by Maven from a throwaway POM: the compiler (with the plugin), and what
# the shims compile against (Playwright and its dependencies, kotlinx-serialization's runtime).
# Every version is pinned, so a resolution is kept in the local repository (keyed by its POM) and
# believed while every file it lists is there: a second check starts no Maven at all.
resolve() {  # resolve NAME DEPENDENCIES_XML -> writes ${work}/NAME.cp
  mkdir -p "${work}/$1"
  cat > "${work}/$1/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.kotlin-check</groupId><artifactId>$1</artifactId><version>0</version>
  <dependencies>$2</dependencies>
</project>
POM
  local kept
  kept="${maven_repo}/.kotlin-check/$(sha256sum < "${work}/$1/pom.xml" | cut -c1-32).cp"
  if [ -s "${kept}" ] && all_present "${kept}"; then
    cp "${kept}" "${work}/$1.cp"
    return
  fi
  if ! output=$(cd "${work}/$1" && MAVEN_OPTS="${MAVEN_OPTS:-${short_jvm}}" mvn -B -q -Dstyle.color=never \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath \
      -Dmdep.outputFile="${work}/$1.cp" -Dmaven.repo.local="${maven_repo}" 2>&1); then
    echo "${output}" >&2
    echo "kotlin-check.sh: mvn could not resolve the $1 classpath" >&2
    exit 3
  fi
  # Written aside, then renamed: a check running at the same time reads a whole file or none.
  mkdir -p "$(dirname "${kept}")"
  cp "${work}/$1.cp" "${kept}.$$" && mv -f "${kept}.$$" "${kept}"
}
all_present() {  # all_present FILE: every path of the classpath in FILE exists
  local entry
  while IFS= read -r -d ':' entry; do
    [ -f "${entry}" ] || return 1
  done < <(tr -d '\n' < "$1"; printf ':')
}
dep() { echo "<dependency><groupId>$1</groupId><artifactId>$2</artifactId><version>$3</version></dependency>"; }

resolve compiler "$(dep org.jetbrains.kotlin kotlin-compiler-embeddable "${kotlin_version}")"
resolve plugin "$(dep org.jetbrains.kotlin kotlin-serialization-compiler-plugin-embeddable "${kotlin_version}")"
resolve compile "$(dep com.google.code.gson gson "${gson_version}")$(dep org.jspecify jspecify "${jspecify_version}")$(dep org.jetbrains.kotlinx kotlinx-serialization-core-jvm "${serialization_version}")$(dep org.jetbrains.kotlinx kotlinx-serialization-json-jvm "${serialization_version}")$(dep org.jetbrains.kotlin kotlin-stdlib "${kotlin_version}")$(dep ai.koog agents-tools-jvm "${koog_version}")${playwright_dep}"

plugin_jar=$(tr ':' '\n' < "${work}/plugin.cp" | grep kotlin-serialization-compiler-plugin-embeddable)
mapfile -t sources < <(find "${dir}" -name '*.kt' -type f | sort)
if [ ${#sources[@]} -eq 0 ]; then
  echo "kotlin-check.sh: no .kt file under ${dir}" >&2
  exit 1
fi

# -Werror is not used: the generated code is held to compiling, and deprecations in Playwright
# (a method it still ships) are not errors of ours.
if ! java ${short_jvm} -cp "$(cat "${work}/compiler.cp")" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler \
    -no-stdlib -no-reflect -jvm-target 11 \
    -Xplugin="${plugin_jar}" \
    -classpath "${playwright_jar:+${playwright_jar}:}$(cat "${work}/compile.cp")" \
    -d "${work}/classes" \
    "${sources[@]}" ${extra[@]+"${extra[@]}"} "${here}/kotlin-check/${api}"/*.kt > "${work}/kotlinc.log" 2>&1; then
  cat "${work}/kotlinc.log" >&2
  echo "kotlin-check.sh: compilation failed" >&2
  exit 1
fi
grep -E '^(error|exception):' "${work}/kotlinc.log" >&2 && exit 1
if [ -n "${KOTLIN_CHECK_CLASSES:-}" ]; then
  rm -rf "${KOTLIN_CHECK_CLASSES}"
  cp -r "${work}/classes" "${KOTLIN_CHECK_CLASSES}"
  echo "${playwright_jar:+${playwright_jar}:}$(cat "${work}/compile.cp")" > "${KOTLIN_CHECK_CLASSES}.classpath"
fi
echo "compiled ${#sources[@]} files"
