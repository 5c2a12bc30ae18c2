#!/usr/bin/env bash
# scripts/grid.sh up [NODES] | down: a Selenium Grid 4 (one hub, NODES nodes, default 1) on
# loopback, each node driving Debian's chromium through Debian's chromedriver, so that Playwright
# can be pointed at it (SELENIUM_REMOTE_URL, read by the Playwright driver at each chromium
# launch) beside or instead of a local browser.
#
# `up` prints the hub's URL (http://127.0.0.1:PORT) as its last line of stdout once the hub reports
# ready with NODES nodes; `down` stops exactly what `up` started and removes the state. The state
# (PIDs, ports, configuration, logs) lives in GRID_STATE, else ./.grid. The grid is fetched through
# mvn (pinned version) into Maven's local repository (MAVEN_REPO_LOCAL, else $HOME/.m2/repository),
# as scripts/setup.sh does; after the first fetch it starts offline.
#
# Environment: GRID_PORT (the hub's port; else a free one), GRID_MAX_SESSIONS (browsers per node,
# default 1), GRID_TIMEOUT (seconds to wait for readiness, default 90), JAVA (default java).
set -euo pipefail

# Pinned: the newest selenium-grid that Maven serves here (4.49.0 and later are not published
# as selenium-grid, although selenium-java goes on to 4.52.0).
grid_version=4.48.0
chromedriver=/usr/bin/chromedriver
chromium=/usr/bin/chromium
state=${GRID_STATE:-$PWD/.grid}
maven_repo=${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}
java=${JAVA:-java}
timeout=${GRID_TIMEOUT:-90}
max_sessions=${GRID_MAX_SESSIONS:-1}

usage() {
  echo "usage: scripts/grid.sh up [NODES] | scripts/grid.sh down" >&2
  exit 2
}

# Every process is started in a session of its own (setsid), so its PID is also its process group
# and stopping the group takes chromedriver and chromium with it.
# A recorded PID whose process is something else (the grid died and the PID was reused) is left
# alone; the group of a dead leader is still killed, since Linux reuses no PID that is a live
# process group's id, so whatever remains in it is ours.
# A zombie is dead: a grid killed from outside is reaped only as late as its adoptive parent likes.
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}
ours() { ! alive "$1" || grep -qa org.openqa.selenium.grid.Main "/proc/$1/cmdline" 2>/dev/null; }
stop_groups() {  # stop_groups PID...: TERM each group, then KILL what is left after 10 s
  local pid i mine=()
  for pid in "$@"; do
    ours "${pid}" && mine+=("${pid}")
  done
  set -- "${mine[@]}"
  for pid in "$@"; do
    kill -TERM -- "-${pid}" 2>/dev/null || true
  done
  for pid in "$@"; do
    for i in $(seq 1 50); do
      alive "${pid}" || break
      sleep 0.2
    done
    # The group, not only its leader: a chromium left behind by a dying node is killed too.
    kill -KILL -- "-${pid}" 2>/dev/null || true
  done
}

down() {
  if [ ! -d "${state}" ]; then
    echo "grid.sh: nothing to stop (no ${state})" >&2
    return 0
  fi
  # All at once (each JVM takes a second or two to shut down); a node that outlives the hub only
  # logs that it cannot reach it.
  local f pids=()
  for f in "${state}"/node-*.pid "${state}/hub.pid"; do
    [ -f "${f}" ] && pids+=("$(cat "${f}")")
  done
  [ ${#pids[@]} -eq 0 ] || stop_groups "${pids[@]}"
  rm -rf "${state}"
}

free_port() {  # the kernel's choice of a free loopback port; taken right after, so a race is rare
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

fail() {  # fail MESSAGE: show the logs' tails, stop what was started, exit non-zero
  local log
  echo "grid.sh: $1" >&2
  for log in "${state}"/*.log; do
    [ -f "${log}" ] || continue
    echo "--- tail of ${log}" >&2
    tail -n 30 "${log}" >&2
  done
  down
  exit 1
}

# The grid's classpath, resolved by Maven from a throwaway POM: offline first (nothing is asked of
# any repository once the local one holds it all), online only for the first fetch.
resolve_classpath() {  # -> ${state}/classpath
  mkdir -p "${state}/pom"
  cat > "${state}/pom/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.grid</groupId><artifactId>grid</artifactId><version>0</version>
  <dependencies><dependency>
    <groupId>org.seleniumhq.selenium</groupId><artifactId>selenium-grid</artifactId><version>${grid_version}</version>
  </dependency></dependencies>
</project>
POM
  local offline output
  for offline in -o ""; do
    if output=$(cd "${state}/pom" && mvn -B -q -Dstyle.color=never ${offline} \
        org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath \
        -Dmdep.outputFile="${state}/classpath" -Dmaven.repo.local="${maven_repo}" 2>&1); then
      return 0
    fi
  done
  echo "${output}" >&2
  fail "mvn could not resolve org.seleniumhq.selenium:selenium-grid:${grid_version}"
}

start() {  # start NAME ARGS...: runs the grid's Main in its own session, logging to NAME.log
  local name=$1
  shift
  setsid "${java}" -cp "$(cat "${state}/classpath")" org.openqa.selenium.grid.Main "$@" \
    > "${state}/${name}.log" 2>&1 < /dev/null &
  echo $! > "${state}/${name}.pid"
}

# How many nodes the hub counts as UP, and whether it calls itself ready.
hub_status() {  # hub_status URL -> "READY NODES_UP", or nothing when the hub does not answer
  python3 - "$1" <<'PY' 2>/dev/null || true
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/status", timeout=5) as response:
    value = json.load(response)["value"]
up = [n for n in value.get("nodes", []) if n.get("availability") == "UP"]
print(str(value.get("ready")).lower(), len(up))
PY
}

up() {
  local nodes=$1 i
  case "${nodes}" in ''|*[!0-9]*|0) usage ;; esac
  # chromedriver is not installed with chromium; without it a node offers no browser at all.
  if [ ! -x "${chromedriver}" ] || [ ! -x "${chromium}" ]; then
    echo "grid.sh: needs Debian's chromium and chromedriver (${chromium}, ${chromedriver});" \
      "install them with: apt-get install -y --no-install-recommends chromium chromium-driver" \
      "(or scripts/setup.sh --with-test-tools)" >&2
    exit 1
  fi
  if [ -f "${state}/hub.pid" ] && alive "$(cat "${state}/hub.pid")"; then
    echo "grid.sh: a grid already runs from ${state} (hub at $(cat "${state}/hub.url" 2>/dev/null));" \
      "run scripts/grid.sh down first" >&2
    exit 1
  fi
  # A state left by a grid that died on its own: clear what may remain of it.
  down 2>/dev/null
  mkdir -p "${state}"
  resolve_classpath

  local hub_port=${GRID_PORT:-$(free_port)} publish subscribe
  # The hub binds its port even when another program listens on it over IPv4 (Java's socket is
  # IPv6, ::ffff:127.0.0.1), and the other program would then answer for it: refuse up front.
  if ! python3 -c 'import socket, sys; socket.create_server(("127.0.0.1", int(sys.argv[1]))).close()' \
      "${hub_port}" 2>/dev/null; then
    fail "port ${hub_port} (GRID_PORT) is not free on 127.0.0.1"
  fi
  publish=$(free_port)
  subscribe=$(free_port)
  local hub_url="http://127.0.0.1:${hub_port}"
  echo "${hub_url}" > "${state}/hub.url"
  # The event bus binds on loopback only: left to itself the hub binds tcp://*, every interface.
  cat > "${state}/hub.toml" <<TOML
[server]
host = "127.0.0.1"
port = ${hub_port}

[events]
publish = "tcp://127.0.0.1:${publish}"
subscribe = "tcp://127.0.0.1:${subscribe}"
bind = true
TOML
  start hub hub --config "${state}/hub.toml"

  for i in $(seq 1 "${nodes}"); do
    local node_port
    node_port=$(free_port)
    # No driver detection nor Selenium Manager (they would download drivers, and there is no
    # network): one explicit Chromium driver. The stereotype's binary and arguments are merged by
    # the node into every session's goog:chromeOptions, so any client, Playwright or not, gets
    # Debian's chromium run the way this machine needs it. Headless is left to the client
    # (Playwright adds --headless unless asked for a headed browser).
    cat > "${state}/node-${i}.toml" <<TOML
[server]
host = "127.0.0.1"
port = ${node_port}

[events]
publish = "tcp://127.0.0.1:${publish}"
subscribe = "tcp://127.0.0.1:${subscribe}"

[node]
grid-url = "${hub_url}"
detect-drivers = false
selenium-manager = false
override-max-sessions = true
max-sessions = ${max_sessions}

[[node.driver-configuration]]
display-name = "Debian Chromium"
webdriver-executable = "${chromedriver}"
max-sessions = ${max_sessions}
stereotype = '{"browserName": "chrome", "goog:chromeOptions": {"binary": "${chromium}", "args": ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]}}'
TOML
    echo "${node_port}" > "${state}/node-${i}.port"
    start "node-${i}" node --config "${state}/node-${i}.toml"
  done
  echo "${hub_port} ${publish} ${subscribe}" > "${state}/hub.ports"

  local deadline=$((SECONDS + timeout)) status=""
  while [ "${SECONDS}" -lt "${deadline}" ]; do
    for f in "${state}"/*.pid; do
      alive "$(cat "${f}")" || fail "$(basename "${f}" .pid) exited before the grid was ready"
    done
    status=$(hub_status "${hub_url}")
    [ "${status}" = "true ${nodes}" ] && break
    sleep 0.5
  done
  [ "${status}" = "true ${nodes}" ] ||
    fail "the hub at ${hub_url} was not ready with ${nodes} node(s) within ${timeout} s (last: ${status:-no answer})"
  echo "${hub_url}"
}

case "${1:-}" in
  up)
    [ $# -le 2 ] || usage
    up "${2:-1}"
    ;;
  down)
    [ $# -eq 1 ] || usage
    down
    ;;
  *) usage ;;
esac
