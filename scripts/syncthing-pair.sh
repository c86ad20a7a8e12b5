#!/usr/bin/env bash
# Two Syncthing instances on this host, "two machines" sharing one folder, on loopback only:
#
#   scripts/syncthing-pair.sh up DIR     start them (or check they run); waits until they are
#                                        connected and the folder is idle on both
#   scripts/syncthing-pair.sh down DIR   stop them (DIR is kept)
#
# DIR/a and DIR/b are the machines: DIR/a/Cloud and DIR/b/Cloud are each one's copy of the
# shared folder (point `--cloud` of a device on "machine" a at DIR/a/Cloud), DIR/a/home and
# DIR/b/home their Syncthing configuration and database, DIR/a/syncthing.log their logs.
#
# No discovery (global or local), no relays, no NAT traversal, no usage reporting, no browser,
# no upgrades: each instance listens on 127.0.0.1 only and knows the other by device ID and
# address. The ports are fixed, and unusual, so that nothing else is disturbed:
#   SYNCTHING_PAIR_PORT (default 22470): a listens on PORT, b on PORT+1, their REST APIs on
#   PORT+2 and PORT+3.
# The folder is watched with a 1 s delay (SYNCTHING_PAIR_WATCH_DELAY) and rescanned every
# SYNCTHING_PAIR_RESCAN seconds (default 10) for what the watcher misses.
# SYNCTHING_PAIR_OWNER=PID: the pair is stopped once that process is gone (a test run that is
# interrupted leaves no instance behind).
# Prints, once up: the two folders and the REST addresses with their API key (KEY=… lines;
# the key is made for DIR and kept in DIR/api-key).
set -euo pipefail

# Descriptors this script inherited beyond stdin, stdout and stderr (a caller's pipes) are
# closed, so that the instances started here never hold them open after the script ends.
for fd in $(ls /proc/$$/fd); do
  [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ] && eval "exec $fd>&-" 2>/dev/null
done
true

usage() { echo "usage: $0 up|down DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$2
port=${SYNCTHING_PAIR_PORT:-22470}
watch_delay=${SYNCTHING_PAIR_WATCH_DELAY:-1}
rescan=${SYNCTHING_PAIR_RESCAN:-10}
timeout=${SYNCTHING_PAIR_TIMEOUT:-60}
owner=${SYNCTHING_PAIR_OWNER:-}
folder_id=grocery-dude-cloud
api_key=  # made for each DIR, kept in DIR/api-key (anyone on the host can reach 127.0.0.1)

case "$port$watch_delay$rescan$timeout$owner" in
  *[!0-9]*) echo "SYNCTHING_PAIR_PORT, _WATCH_DELAY, _RESCAN, _TIMEOUT and _OWNER must be whole numbers" >&2; exit 2 ;;
esac
if [ "$port" -lt 1024 ] || [ "$port" -gt 65532 ]; then
  echo "SYNCTHING_PAIR_PORT must be from 1024 to 65532 (it uses PORT to PORT+3): $port" >&2; exit 2
fi

listen_port() { case $1 in a) echo "$port" ;; b) echo $((port + 1)) ;; esac; }
api_port() { case $1 in a) echo $((port + 2)) ;; b) echo $((port + 3)) ;; esac; }
api() { curl -fsS --max-time 5 -H "X-API-Key: $api_key" "http://127.0.0.1:$(api_port "$1")$2"; }
running() { [ -f "$dir/$1/syncthing.pid" ] && kill -0 "$(cat "$dir/$1/syncthing.pid")" 2>/dev/null; }
in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Stops both instances (asked at once; each gets 10 s before it is killed).
stop() {
  local machine pids=()
  for machine in a b; do
    running "$machine" && pids+=("$(cat "$dir/$machine/syncthing.pid")")
  done
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  done
  rm -f "$dir/a/syncthing.pid" "$dir/b/syncthing.pid"
}

# The whole configuration, written from scratch: what is not said takes Syncthing's defaults.
write_config() {
  local machine=$1 id_a=$2 id_b=$3
  cat >"$dir/$machine/home/config.xml" <<EOF
<configuration version="36">
    <folder id="$folder_id" label="Grocery Dude cloud folder" path="$dir/$machine/Cloud" type="sendreceive" rescanIntervalS="$rescan" fsWatcherEnabled="true" fsWatcherDelayS="$watch_delay" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="$id_a"></device>
        <device id="$id_b"></device>
        <markerName>.stfolder</markerName>
    </folder>
    <device id="$id_a" name="machine-a" compression="metadata">
        <address>tcp://127.0.0.1:$(listen_port a)</address>
    </device>
    <device id="$id_b" name="machine-b" compression="metadata">
        <address>tcp://127.0.0.1:$(listen_port b)</address>
    </device>
    <gui enabled="true" tls="false">
        <address>127.0.0.1:$(api_port "$machine")</address>
        <apikey>$api_key</apikey>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:$(listen_port "$machine")</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <crashReportingEnabled>false</crashReportingEnabled>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <setLowPriority>false</setLowPriority>
        <stunKeepaliveStartS>0</stunKeepaliveStartS>
    </options>
</configuration>
EOF
}

up() {
  command -v syncthing >/dev/null || { echo "syncthing is not installed: run scripts/install-deps.sh (Debian's syncthing package)" >&2; exit 1; }
  command -v curl >/dev/null || { echo "curl is not installed: run scripts/install-deps.sh" >&2; exit 1; }
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -s "$dir/api-key" ] || (umask 077 && od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$dir/api-key")
  api_key=$(cat "$dir/api-key")
  if ! running a || ! running b; then
    stop
    for p in "$port" $((port + 1)) $((port + 2)) $((port + 3)); do
      if in_use "$p"; then
        echo "port $p on 127.0.0.1 is in use: set SYNCTHING_PAIR_PORT to another base port" >&2; exit 1
      fi
    done
    local ids=()
    for machine in a b; do
      mkdir -p "$dir/$machine/Cloud" "$dir/$machine/home"
      [ -f "$dir/$machine/home/cert.pem" ] ||
        syncthing generate --home="$dir/$machine/home" --no-default-folder --skip-port-probing >/dev/null 2>&1
      ids+=("$(syncthing serve --home="$dir/$machine/home" --device-id)")
    done
    for machine in a b; do
      write_config "$machine" "${ids[0]}" "${ids[1]}"
      STNOUPGRADE=1 STNORESTART=1 nohup syncthing serve --home="$dir/$machine/home" --no-browser --no-restart \
        --no-upgrade --logfile="$dir/$machine/syncthing.log" --log-max-old-files=0 </dev/null >/dev/null 2>&1 &
      echo $! >"$dir/$machine/syncthing.pid"
    done
    if [ -n "$owner" ]; then
      ( while kill -0 "$owner" 2>/dev/null && { running a || running b; }; do sleep 1; done; stop ) \
        </dev/null >/dev/null 2>&1 &
    fi
  fi
  # Connected to each other, and the folder scanned and idle on both.
  local deadline=$((SECONDS + timeout)) ready
  while :; do
    ready=1
    for machine in a b; do
      running "$machine" || { echo "syncthing of machine $machine stopped: see $dir/$machine/syncthing.log" >&2; stop; exit 1; }
      api "$machine" /rest/system/connections 2>/dev/null | grep -q '"connected": *true' || ready=0
      api "$machine" "/rest/db/status?folder=$folder_id" 2>/dev/null | grep -q '"state": *"idle"' || ready=0
    done
    [ $ready -eq 1 ] && break
    if [ $SECONDS -ge $deadline ]; then
      echo "the two syncthing instances did not connect within ${timeout}s: see $dir/a/syncthing.log and $dir/b/syncthing.log" >&2
      stop; exit 1
    fi
    sleep 0.2
  done
  echo "A=$dir/a/Cloud"
  echo "B=$dir/b/Cloud"
  echo "API_A=http://127.0.0.1:$(api_port a)"
  echo "API_B=http://127.0.0.1:$(api_port b)"
  echo "KEY=$api_key"
  echo "FOLDER=$folder_id"
}

case $command in
  up) up ;;
  down) [ -d "$dir" ] || { echo "no such folder: $dir" >&2; exit 1; }; stop ;;
  *) usage ;;
esac
