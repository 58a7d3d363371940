#!/usr/bin/env bash
# docker-compose with docker-compose.yml + docker-compose.local.yml, for an engine that has only
# host networking (this project's CI: dockerd --bridge=none):
#
#   scripts/docker/compose-local.sh -p tvshop-test up -d --no-build
#   scripts/docker/compose-local.sh -p tvshop-test down -v
#
# Why not `docker-compose -f docker-compose.yml -f docker-compose.local.yml` directly: the main
# file publishes the gateway's port (what a normal Docker needs), docker-compose 1.x refuses
# published ports on a host-networked container, and an override file cannot remove a list
# entry. So the two files are rendered into one (`docker-compose config`, which also checks them
# and fills in the variables), the `ports:` entries are dropped (meaningless on the host's
# network), and docker-compose runs on that. The rendered file holds the secrets from the
# environment, so it is private to this user and removed afterwards.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Both rendered files hold the secrets: private to this user from their first byte.
umask 077
rendered="$(mktemp "${TMPDIR:-/tmp}/tvshop-compose.XXXXXX.yml")"
trap 'rm -f "$rendered" "$rendered.in"' EXIT

docker-compose --project-directory "$ROOT" -f "$ROOT/docker-compose.yml" -f "$ROOT/docker-compose.local.yml" config >"$rendered.in"
# In the rendered file each service's keys sit at 4 spaces; drop every `ports:` key with its
# items (`    - ...` and anything indented deeper).
awk '
  skip && (/^    - / || /^      /) { next }
  { skip = 0 }
  /^    ports:/ { skip = 1; next }
  { print }
' "$rendered.in" >"$rendered"
rm -f "$rendered.in"
docker-compose --project-directory "$ROOT" -f "$rendered" "$@"
