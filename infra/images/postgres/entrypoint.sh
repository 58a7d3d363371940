#!/bin/bash
# First start: initdb with the superuser's password from the environment (never baked into the
# image), then the database named by POSTGRES_DB. Every start: PostgreSQL in the foreground.
set -euo pipefail
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD: the superuser password (no default on purpose)}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
port="${PGPORT:-5432}"

if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  echo "tvshop-postgres: initialising $PGDATA"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  # initdb only lets in 127.0.0.1 and ::1; other containers connect from their own addresses.
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [[ "$db" != "postgres" ]]; then
    # A server on the socket only, so nothing connects before the database exists.
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p $port" -w start >/dev/null
    createdb -p "$port" -U "$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -p "$port" "$@"
