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
    // The whole append in one statement (ADR 0040): the stream's version check, the global
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
  {
    id: '0003-group-commit',
    // Group commit (ADR 0046): several appends in one transaction, so one commit (one WAL flush)
    // carries them all. Each append keeps its own version check and its own outcome: a conflict
    // or a duplicate writes nothing for that append and does not disturb the others. The steps
    // keep es.append_events' order (stream rows first, sorted by stream id so two groups cannot
    // deadlock; the ordering lock last, held to the commit), so ADR 0002's guarantee is unchanged.
    sql: `
      create or replace function es.append_groups(p_appends jsonb, p_lock bigint, p_channel text)
      returns table (
        idx integer, "position" bigint, event_id uuid, stream_id text, stream_version integer, type text, schema_version integer,
        data jsonb, metadata jsonb, recorded_at timestamptz, conflict_version integer, duplicate_id uuid
      )
      language plpgsql as $$
      #variable_conflict use_column
      declare
        a record;
        n integer;
        next_version integer;
        actual integer;
        matches boolean;
        ok_idx integer[] := '{}';
        ok_next integer[] := '{}';
      begin
        -- Stream rows are locked in stream-id order (then arrival order), whatever order the
        -- appends came in: every group takes them in the same order, so groups never deadlock.
        for a in
          select x.i::integer as i, x.ap->>'stream' as s, x.ap->>'expected' as mode, jsonb_array_length(x.ap->'events') as cnt,
                 (select (y.ev->>'eventId')::uuid
                    from jsonb_array_elements(x.ap->'events') with ordinality as y(ev, j)
                   where exists (select 1 from es.events e where e.event_id = (y.ev->>'eventId')::uuid)
                   order by y.j limit 1) as dup
            from jsonb_array_elements(p_appends) with ordinality as x(ap, i)
           order by x.ap->>'stream' collate "C", x.i
        loop
          n := a.cnt;
          next_version := null;
          if a.dup is not null then
            -- An event id is stored already: nothing is written for this append. Like a lone
            -- append (whose insert would fail after its version check), a wrong expectation is
            -- reported first, else the duplicate.
            select s.version into actual from es.streams s where s.stream_id = a.s for update;
            if a.mode = 'any' then
              matches := true;
            elsif a.mode = 'no_stream' then
              matches := actual is null;
            elsif a.mode = 'stream_exists' then
              matches := actual is not null;
            else
              matches := actual is not null and actual = a.mode::integer;
            end if;
            if matches then
              return query select a.i, null::bigint, null::uuid, null::text, null::integer, null::text, null::integer,
                null::jsonb, null::jsonb, null::timestamptz, null::integer, a.dup;
            else
              return query select a.i, null::bigint, null::uuid, null::text, null::integer, null::text, null::integer,
                null::jsonb, null::jsonb, null::timestamptz, coalesce(actual, -1), null::uuid;
            end if;
            continue;
          end if;
          if a.mode = 'no_stream' then
            insert into es.streams as s (stream_id, version) values (a.s, n - 1)
              on conflict (stream_id) do nothing returning s.version into next_version;
          elsif a.mode = 'any' then
            insert into es.streams as s (stream_id, version) values (a.s, n - 1)
              on conflict (stream_id) do update set version = s.version + n returning s.version into next_version;
          elsif a.mode = 'stream_exists' then
            update es.streams s set version = s.version + n where s.stream_id = a.s returning s.version into next_version;
          else
            update es.streams s set version = s.version + n where s.stream_id = a.s and s.version = a.mode::integer
              returning s.version into next_version;
          end if;
          if next_version is null then
            -- This append's expectation was wrong: nothing is written for it; say where the stream is.
            select s.version into actual from es.streams s where s.stream_id = a.s;
            return query select a.i, null::bigint, null::uuid, null::text, null::integer, null::text, null::integer,
              null::jsonb, null::jsonb, null::timestamptz, coalesce(actual, -1), null::uuid;
            continue;
          end if;
          ok_idx := ok_idx || a.i;
          ok_next := ok_next || next_version;
        end loop;
        if cardinality(ok_idx) = 0 then
          return;
        end if;
        -- Positions are drawn under this lock, and it is released only at commit: readers by
        -- position never see a gap fill in later (ADR 0002). Each append's events get
        -- consecutive positions, appends in arrival order.
        perform pg_advisory_xact_lock(p_lock);
        return query
          insert into es.events as e (event_id, stream_id, stream_version, type, schema_version, data, metadata)
          select (y.ev->>'eventId')::uuid, x.ap->>'stream', o.nv - jsonb_array_length(x.ap->'events') + y.j::integer,
                 y.ev->>'type', coalesce((y.ev->>'schemaVersion')::integer, 1), y.ev->'data', y.ev->'metadata'
            from unnest(ok_idx, ok_next) as o(i, nv)
            cross join lateral (select p_appends->(o.i - 1) as ap) as x
            cross join lateral jsonb_array_elements(x.ap->'events') with ordinality as y(ev, j)
           order by o.i, y.j
          returning null::integer, e.position, e.event_id, e.stream_id, e.stream_version, e.type, e.schema_version, e.data,
                    e.metadata, e.recorded_at, null::integer, null::uuid;
        perform pg_notify(p_channel, currval(pg_get_serial_sequence('es.events', 'position'))::text);
      end $$;
    `,
  },
  {
    id: '0004-appends-planned-once',
    // ADR 0050: the same appends, with less work in the server per group.
    // - The functions' statements take a generic plan, made once per connection, instead of being
    //   planned again at every call: their parameters are jsonb and arrays, so PostgreSQL kept
    //   choosing custom plans, and ~18% of a group's time in the server went to the planner.
    // - es.events loses its foreign key to es.streams. The only writers of es.events are these two
    //   functions, and they claim the stream's row in the same transaction just before the insert,
    //   so the key's check on every inserted event (a trigger and a query per row) only re-read
    //   what had just been written.
    // - A group no longer looks up every event id before it writes: events_event_id_key finds a
    //   stored id in the insert anyway, the statement then fails as a whole, and the store sends
    //   each append of the group again on its own (the path ADR 0046 already had for an id stored
    //   by another process meanwhile), so each still gets exactly its own outcome.
    // - Its locks are taken first, in the order an append takes them (es.streams, then es.events):
    //   dropping the key locks both tables, and in the other order it could deadlock with a process
    //   still appending while this one starts.
    sql: `
      lock table es.streams, es.events in access exclusive mode;
      alter function es.append_events(text, text, jsonb, bigint, text) set plan_cache_mode = force_generic_plan;
      alter table es.events drop constraint if exists events_stream_id_fkey;
      create or replace function es.append_groups(p_appends jsonb, p_lock bigint, p_channel text)
      returns table (
        idx integer, "position" bigint, event_id uuid, stream_id text, stream_version integer, type text, schema_version integer,
        data jsonb, metadata jsonb, recorded_at timestamptz, conflict_version integer, duplicate_id uuid
      )
      language plpgsql
      set plan_cache_mode = force_generic_plan
      as $$
      #variable_conflict use_column
      declare
        a record;
        next_version integer;
        actual integer;
        ok_idx integer[] := '{}';
        ok_next integer[] := '{}';
      begin
        -- Stream rows are locked in stream-id order (then arrival order), whatever order the
        -- appends came in: every group takes them in the same order, so groups never deadlock.
        for a in
          select x.i::integer as i, x.ap->>'stream' as s, x.ap->>'expected' as mode, jsonb_array_length(x.ap->'events') as n
            from jsonb_array_elements(p_appends) with ordinality as x(ap, i)
           order by x.ap->>'stream' collate "C", x.i
        loop
          next_version := null;
          if a.mode = 'no_stream' then
            insert into es.streams as s (stream_id, version) values (a.s, a.n - 1)
              on conflict (stream_id) do nothing returning s.version into next_version;
          elsif a.mode = 'any' then
            insert into es.streams as s (stream_id, version) values (a.s, a.n - 1)
              on conflict (stream_id) do update set version = s.version + a.n returning s.version into next_version;
          elsif a.mode = 'stream_exists' then
            update es.streams s set version = s.version + a.n where s.stream_id = a.s returning s.version into next_version;
          else
            update es.streams s set version = s.version + a.n where s.stream_id = a.s and s.version = a.mode::integer
              returning s.version into next_version;
          end if;
          if next_version is null then
            -- This append's expectation was wrong: nothing is written for it; say where the stream is.
            select s.version into actual from es.streams s where s.stream_id = a.s;
            return query select a.i, null::bigint, null::uuid, null::text, null::integer, null::text, null::integer,
              null::jsonb, null::jsonb, null::timestamptz, coalesce(actual, -1), null::uuid;
            continue;
          end if;
          ok_idx := ok_idx || a.i;
          ok_next := ok_next || next_version;
        end loop;
        if cardinality(ok_idx) = 0 then
          return;
        end if;
        -- Positions are drawn under this lock, and it is released only at commit: readers by
        -- position never see a gap fill in later (ADR 0002). Each append's events get
        -- consecutive positions, appends in arrival order. An event id stored already fails the
        -- whole statement here (events_event_id_key) and nothing of the group is written.
        perform pg_advisory_xact_lock(p_lock);
        return query
          insert into es.events as e (event_id, stream_id, stream_version, type, schema_version, data, metadata)
          select (y.ev->>'eventId')::uuid, x.ap->>'stream', o.nv - jsonb_array_length(x.ap->'events') + y.j::integer,
                 y.ev->>'type', coalesce((y.ev->>'schemaVersion')::integer, 1), y.ev->'data', y.ev->'metadata'
            from unnest(ok_idx, ok_next) as o(i, nv)
            cross join lateral (select p_appends->(o.i - 1) as ap) as x
            cross join lateral jsonb_array_elements(x.ap->'events') with ordinality as y(ev, j)
           order by o.i, y.j
          returning null::integer, e.position, e.event_id, e.stream_id, e.stream_version, e.type, e.schema_version, e.data,
                    e.metadata, e.recorded_at, null::integer, null::uuid;
        perform pg_notify(p_channel, currval(pg_get_serial_sequence('es.events', 'position'))::text);
      end $$;
    `,
  },
];
