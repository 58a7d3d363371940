// Operator tool for the read models and the log:
//   npm run projector -- run               keep the read models up to date, announcing changes on
//                                          REDIS_URL to the gateways started with PROJECTOR=external;
//                                          with EVENT_BUS=kafka, relay the log to Kafka and read it from there
//   npm run projector -- status            each projection's position and lag
//   npm run projector -- rebuild catalog   replay the log into fresh tables and swap them in
//   npm run projector -- audit [--stream product-<id>] [--from 0] [--limit 100]
// Uses DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (./data) — stop `npm start` first.
import {
  InProcessChangeFeed,
  PostgresEventStore,
  RedisChangeFeed,
  createLogger,
  describeTopology,
  openAdapters,
  databaseUrlFromEnv,
  dataDirFromEnv,
  describeError,
  guardProcess,
  migrate,
  openDatabase,
  projectionMigrations,
  redisFromEnv,
  topologyFromEnv,
} from '@tv-shop/platform';
import { startProjector } from './module';

const [command = 'status', ...rest] = process.argv.slice(2);
const flag = (name: string) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : undefined;
};

const db = await openDatabase({ databaseUrl: databaseUrlFromEnv(), dataDir: dataDirFromEnv() }).catch((err: unknown) => {
  console.error(`projector: could not open the database: ${describeError(err)}`);
  process.exit(1);
});
const store = new PostgresEventStore(db.pool);
try {
  await PostgresEventStore.migrate(db.pool);
  await migrate(db.pool, 'projections', projectionMigrations);
  if (command === 'run') {
    const log = createLogger('projector');
    // The runners restart themselves through database outages; only a bug ends this process.
    guardProcess(log, () => process.exit(1));
    const topology = topologyFromEnv('projector');
    const redis = redisFromEnv();
    if (topology.changeFeed === 'in-process') log.warn('REDIS_URL is not set: no gateway will hear about changes');
    const feed =
      topology.changeFeed === 'redis'
        ? await RedisChangeFeed.connect({ url: redis.url!, channel: redis.channel })
        : new InProcessChangeFeed();
    // EVENT_BUS=kafka: this host also relays the log to Kafka, and its projections read it from there.
    const adapters = await openAdapters(topology, { role: 'projector', pool: db.pool, log });
    const projector = await startProjector({ pool: db.pool, store: adapters.store, feed, events: adapters.events });
    log.info(`projecting (${describeTopology(topology)})`, {
      projections: (await projector.status()).map((p) => `${p.name}:${p.role}`).join(' '),
    });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await projector.stop();
    await adapters.close();
    await feed.close();
  } else if (command === 'audit') {
    const stream = flag('stream');
    const events = stream ? await store.readStream(stream) : await store.readAll(Number(flag('from') ?? 0), Number(flag('limit') ?? 100));
    for (const e of events) {
      const m = e.metadata;
      console.log(
        `${String(e.position).padStart(7)}  ${m.at}  ${e.type.padEnd(26)} ${e.streamId}@${e.version}  by ${m.actorRole}:${m.actorId}  corr=${m.correlationId}${m.causationId ? ` cause=${m.causationId}` : ''}`,
      );
    }
  } else if (command === 'status' || command === 'rebuild') {
    const projector = await startProjector({ pool: db.pool, store, feed: new InProcessChangeFeed() });
    // Bounded: a projection that keeps failing a batch (or leads elsewhere) must not hang the tool.
    await Promise.race([projector.caughtUp().catch(() => {}), new Promise((r) => setTimeout(r, 60_000).unref())]);
    if (command === 'rebuild') {
      const name = rest[0] ?? '';
      const t0 = Date.now();
      const { position } = await projector.rebuild(name);
      console.log(`rebuilt ${name} up to position ${position} in ${Date.now() - t0} ms`);
    }
    for (const s of await projector.status())
      console.log(`${s.name.padEnd(10)} position ${s.position}  lag ${s.lag}${s.error ? `  error: ${s.error}` : ''}`);
    await projector.stop();
  } else {
    console.error(`unknown command ${command}: use run, status, rebuild <name> or audit`);
    process.exitCode = 2;
  }
} catch (err) {
  console.error(`projector ${command} failed: ${describeError(err)}`);
  process.exitCode = 1;
} finally {
  await store.close();
  await db.close();
}
