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
  {
    id: '0002-append-in-one-round-trip',
    // The whole append in one statement (ADR 0039): the stream's version check, the global
    // ordering lock, the insert and the notification run server-side, so the lock is held only
    // from the insert to the commit instead of across several network round trips.
    sql: `
      create or replace function es.append_events(p_stream text, p_expected text, p_events jsonb, p_lock bigint, p_channel text)
      returns table (
        "position" bigint, event_id uuid, stream_id text, stream_version integer, type text, schema_version integer,
        data jsonb, metadata jsonb, recorded_at timestamptz, conflict_version integer
      )
      language plpgsql as $$
      #variable_conflict use_column
      declare
        n integer := jsonb_array_length(p_events);
        next_version integer;
        actual integer;
      begin
        if p_expected = 'no_stream' then
          insert into es.streams as s (stream_id, version) values (p_stream, n - 1)
            on conflict (stream_id) do nothing returning s.version into next_version;
        elsif p_expected = 'any' then
          insert into es.streams as s (stream_id, version) values (p_stream, n - 1)
            on conflict (stream_id) do update set version = s.version + n returning s.version into next_version;
        elsif p_expected = 'stream_exists' then
          update es.streams s set version = s.version + n where s.stream_id = p_stream returning s.version into next_version;
        else
          update es.streams s set version = s.version + n where s.stream_id = p_stream and s.version = p_expected::integer
            returning s.version into next_version;
        end if;
        if next_version is null then
          -- The caller's expectation was wrong: nothing is written; say where the stream is.
          select s.version into actual from es.streams s where s.stream_id = p_stream;
          return query select null::bigint, null::uuid, null::text, null::integer, null::text, null::integer,
            null::jsonb, null::jsonb, null::timestamptz, coalesce(actual, -1);
          return;
        end if;
        -- Positions are drawn under this lock, and it is released only at commit: readers by
        -- position never see a gap fill in later (ADR 0002).
        perform pg_advisory_xact_lock(p_lock);
        return query
          insert into es.events as e (event_id, stream_id, stream_version, type, schema_version, data, metadata)
          select (x.ev->>'eventId')::uuid, p_stream, next_version - n + x.i::integer, x.ev->>'type',
                 coalesce((x.ev->>'schemaVersion')::integer, 1), x.ev->'data', x.ev->'metadata'
            from jsonb_array_elements(p_events) with ordinality as x(ev, i)
           order by x.i
          returning e.position, e.event_id, e.stream_id, e.stream_version, e.type, e.schema_version, e.data, e.metadata,
                    e.recorded_at, null::integer;
        perform pg_notify(p_channel, currval(pg_get_serial_sequence('es.events', 'position'))::text);
      end $$;
    `,
  },
];
