import type pg from 'pg';

/** Each read-model projection's checkpoint (policies keep theirs in the same table). */
export async function projectionPositions(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ name: string; position: string }>(
    `select name, position from public.projection_checkpoints where name not like 'policy:%'`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.position)]));
}
