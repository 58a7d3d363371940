import type pg from 'pg';

/** One projection's or policy's checkpoint as the health check sees it, beside the log's head. */
export interface CheckpointHealthRow {
  /** Null when no checkpoint exists yet (the one row then only carries the head). */
  name: string | null;
  position: string | null;
  head: string | null;
  /** How long the oldest event it has not applied has been waiting (ms); null when it is at the head. */
  waiting_ms: number | null;
  /** How long since its checkpoint last moved (ms). */
  idle_ms: number;
}

/**
 * Every checkpoint (projections and `policy:` ones) with how long it has been behind and idle,
 * and the log's head, in one round trip; at least one row, so the head is known even with no
 * checkpoint. Read by the gateway's health check; what counts as stalled is the caller's to say.
 */
export async function checkpointHealth(pool: pg.Pool): Promise<CheckpointHealthRow[]> {
  const { rows } = await pool.query<CheckpointHealthRow>(
    `select c.name, c.position, h.head,
            (extract(epoch from now() - (select e.recorded_at from es.events e where e.position > c.position order by e.position limit 1)) * 1000)::float8 as waiting_ms,
            (extract(epoch from now() - c.updated_at) * 1000)::float8 as idle_ms
       from (select max(position) as head from es.events) h
       left join public.projection_checkpoints c on true
      order by c.name`,
  );
  return rows;
}
