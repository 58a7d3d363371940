import type { Migration } from '../db/migrate';

export const eventStoreMigrations: Migration[] = [
  {
    id: '0001-event-store',
    sql: `
      create schema if not exists es;
      create table es.streams (
        stream_id text primary key,
        version integer not null
      );
      create table es.events (
        position bigint generated always as identity primary key,
        event_id uuid not null unique,
        stream_id text not null references es.streams (stream_id),
        stream_version integer not null,
        type text not null,
        schema_version integer not null default 1,
        data jsonb not null,
        metadata jsonb not null,
        recorded_at timestamptz not null default now(),
        unique (stream_id, stream_version)
      );
      -- Events are never updated or deleted: "delete" is an event.
      create function es.forbid_change() returns trigger language plpgsql as $$
        begin raise exception 'es.events is append-only'; end $$;
      create trigger events_append_only before update or delete on es.events
        for each row execute function es.forbid_change();
    `,
  },
];
