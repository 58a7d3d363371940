#!/usr/bin/env bash
# Makes a Docker engine available for the compose smoke test and the testcontainers run.
#
#   scripts/docker/engine.sh          ensure an engine answers `docker info` (install/start one if needed)
#   scripts/docker/engine.sh stop     stop the dockerd this script started (never anyone else's)
#
# Exit codes: 0 an engine answers; 3 no engine and none can be started here (the reason is printed,
# so a caller can report "skipped" honestly); 1 anything else went wrong.
#
# This machine has no Docker Hub and no bridge networking, so the engine is started with
# --iptables=false --bridge=none and every container must use the host's network.
set -euo pipefail

NO_ENGINE=3
STATE_DIR="${TVSHOP_DOCKER_STATE:-/var/run/tvshop-dockerd}"
PIDFILE="$STATE_DIR/dockerd.pid"
LOG="${TVSHOP_DOCKERD_LOG:-/tmp/tvshop-dockerd.log}"

say() { printf 'engine: %s\n' "$*" >&2; }
cannot() {
  say "no container engine: $*"
  exit "$NO_ENGINE"
}
engine_up() { docker info >/dev/null 2>&1; }

if [[ "${1:-}" == "stop" ]]; then
  # Only the dockerd whose pid we recorded, and only if that pid still is a dockerd.
  if [[ -f "$PIDFILE" ]]; then
    pid="$(cat "$PIDFILE")"
    if [[ -n "$pid" ]] && [[ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" == "dockerd" ]]; then
      say "stopping the dockerd we started (pid $pid)"
      kill "$pid"
      for _ in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
      done
    fi
    rm -f "$PIDFILE"
  else
    say "no dockerd was started by this script; nothing to stop"
  fi
  exit 0
fi

if command -v docker >/dev/null 2>&1 && engine_up; then
  exit 0
fi

# Installing and starting a daemon needs root; elsewhere we can only say why not.
[[ "$(id -u)" == "0" ]] || cannot "docker info fails and this user is not root, so no dockerd can be started"

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if ((${#need[@]} > 0)); then
  command -v apt-get >/dev/null 2>&1 || cannot "missing ${need[*]} and there is no apt-get to install them"
  say "installing ${need[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || cannot "apt-get update failed"
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || cannot "apt-get install ${need[*]} failed"
fi
command -v dockerd >/dev/null 2>&1 || cannot "dockerd is still missing after installing docker.io"

mkdir -p "$STATE_DIR"
# A pidfile left by an earlier run of ours whose dockerd still lives: wait for it rather than start a second.
if [[ -f "$PIDFILE" ]] && [[ "$(cat "/proc/$(cat "$PIDFILE")/comm" 2>/dev/null || true)" == "dockerd" ]]; then
  say "our dockerd (pid $(cat "$PIDFILE")) is running; waiting for it to answer"
elif pgrep -x dockerd >/dev/null 2>&1; then
  # Someone else's dockerd that does not answer: we must not touch it.
  cannot "a dockerd we did not start is running but docker info fails (see its own log)"
else
  say "starting dockerd (log: $LOG)"
  # setsid: the daemon must outlive this script and the caller's process group.
  setsid dockerd --iptables=false --bridge=none --pidfile "$STATE_DIR/dockerd.internal.pid" \
    >>"$LOG" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
fi

for _ in $(seq 1 120); do
  if engine_up; then
    say "engine ready ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))"
    exit 0
  fi
  if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    tail -n 20 "$LOG" >&2 || true
    rm -f "$PIDFILE"
    cannot "dockerd exited at start (log above)"
  fi
  sleep 0.5
done
tail -n 20 "$LOG" >&2 || true
cannot "dockerd did not answer within 60 s"
