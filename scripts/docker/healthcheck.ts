// The containers' health check (compiled into dist/server/healthcheck.mjs by `npm run build:server`).
//   node healthcheck.mjs http://127.0.0.1:4001/health   200 within 3 s, or unhealthy
//   node healthcheck.mjs projector                      the projector has opened its projections' checkpoints
// The projector serves no HTTP, so its sign of life is in the database it writes: at start it
// creates a checkpoint row for each projection it hosts (policies' rows, `policy:*`, belong to
// the services).
import pg from 'pg';

const target = process.argv[2] ?? '';
const fail = (why: string): never => {
  console.error(`unhealthy: ${why}`);
  process.exit(1);
};

if (/^https?:\/\//.test(target)) {
  const res = await fetch(target, { signal: AbortSignal.timeout(3000) }).catch((err: unknown) => fail(String(err)));
  if (!res.ok) fail(`${target} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
} else if (target === 'projector') {
  const url = process.env.DATABASE_URL;
  if (!url) fail('DATABASE_URL is not set');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from public.projection_checkpoints where name not like 'policy:%'`,
    );
    if ((rows[0]?.n ?? 0) === 0) fail('no projection checkpoint yet');
  } catch (err) {
    fail(String(err));
  } finally {
    await client.end().catch(() => {});
  }
} else {
  fail('usage: healthcheck.mjs <http url> | projector');
}
