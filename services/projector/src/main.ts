// Operator tool for the read models and the log (`npm run projector -- --help` for the details):
//   npm run projector -- run               keep the read models up to date, announcing changes on
//                                          REDIS_URL to the gateways started with PROJECTOR=external;
//                                          with EVENT_BUS=kafka, relay the log to Kafka and read it from there;
//                                          /metrics and /health on METRICS_PORT (9468; 0: off)
//   npm run projector -- status            each projection's position and lag
//   npm run projector -- rebuild catalog   replay the log into fresh tables and swap them in
//   npm run projector -- audit [--stream product-<id>] [--type T] [--from 0] [--limit 100]
//   npm run projector -- verify [catalog]  rebuild into scratch tables and compare with the live ones
// Uses DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (./data): a running `npm start`'s,
// else one started for the command.
import { USAGE, UsageError, checkProjectionName, parseCommandLine, type Command } from './args';

function usageFailure(err: unknown): never {
  if (!(err instanceof UsageError)) throw err;
  console.error(err.message);
  process.exit(err.exitCode);
}

let cmd: Command;
try {
  cmd = parseCommandLine(process.argv.slice(2));
} catch (err) {
  usageFailure(err);
}
if (cmd.command === 'help') {
  console.log(USAGE);
  process.exit(0);
}

// Loaded after the command line is checked: --help and a typo answer at once.
const platform = await import('@tv-shop/platform');
const { projections, startProjector } = await import('./module');
const { openOperatorDatabase } = await import('./database');
const { InProcessChangeFeed, PostgresEventStore, ProjectionRunner, describeError, describeVerifyResult } = platform;

try {
  if (cmd.command === 'rebuild' || cmd.command === 'verify')
    checkProjectionName(
      cmd.name,
      projections.map((p) => p.name),
    );
} catch (err) {
  usageFailure(err);
}

/** Progress on stderr, at most once a second. */
function progressPrinter(label: string) {
  let last = 0;
  return (p: { replayed: number; total: number | null; position: number; upTo: number }) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    // Past the total, verify is applying what was written while it replayed (writes go on).
    const of =
      p.total !== null && p.replayed <= p.total
        ? ` / ${p.total}`
        : p.total !== null
          ? ` (${p.total} to start with, and ${p.replayed - p.total} written meanwhile)`
          : Number.isFinite(p.upTo)
            ? ` (position ${p.position} of ${p.upTo})`
            : '';
    console.error(`${label}: ${p.replayed}${of} events replayed`);
  };
}

const db = await openOperatorDatabase({ databaseUrl: platform.databaseUrlFromEnv(), dataDir: platform.dataDirFromEnv() }).catch(
  (err: unknown) => {
    console.error(`projector: could not open the database: ${describeError(err)}`);
    process.exit(1);
  },
);
const store = new PostgresEventStore(db.pool);
const countEvents = async (upTo: number) =>
  Number((await db.pool.query<{ n: string }>('select count(*) as n from es.events where position <= $1', [upTo])).rows[0]!.n);

/** Each projection's checkpoint beside the log's head: read only, so it never disturbs a running projector. */
async function printStatus() {
  const head = await store.headPosition();
  const positions = await platform.projectionPositions(db.pool);
  for (const p of projections) {
    const position = positions[p.name];
    console.log(
      `${p.name.padEnd(10)} position ${position ?? 'none'}  lag ${Math.max(0, head - (position ?? 0))}${position === undefined ? '  (no checkpoint yet)' : ''}`,
    );
  }
}

async function execute(cmd: Exclude<Command, { command: 'help' }>): Promise<number> {
  // Both are no-ops when the shop has already made them (the usual case with a running shop).
  await PostgresEventStore.migrate(db.pool);
  await platform.migrate(db.pool, 'projections', platform.projectionMigrations);
  switch (cmd.command) {
    case 'run': {
      const log = platform.createLogger('projector');
      // The runners restart themselves through database outages; only a bug ends this process.
      platform.guardProcess(log, () => process.exit(1));
      const topology = platform.topologyFromEnv('projector');
      const redis = platform.redisFromEnv();
      if (topology.changeFeed === 'in-process') log.warn('REDIS_URL is not set: no gateway will hear about changes');
      const feed =
        topology.changeFeed === 'redis'
          ? await platform.RedisChangeFeed.connect({ url: redis.url!, channel: redis.channel })
          : new InProcessChangeFeed();
      // METRICS_PORT (9468; 0: off), METRICS_HOST (127.0.0.1): /metrics and the detailed /health.
      const listener = platform.metricsListenerFromEnv(process.env, platform.DEFAULT_METRICS_PORTS.projector);
      const metrics = platform.createMetrics({ service: 'projector' });
      platform.watchLag(metrics, db.pool, { log });
      // EVENT_BUS=kafka: this host also relays the log to Kafka, and its projections read it from there.
      const adapters = await platform.openAdapters(topology, { role: 'projector', pool: db.pool, log });
      const events = platform.instrumentLogSource(adapters.events, metrics, topology, { clientId: 'tvshop-projector', log });
      const store = platform.instrumentEventStore(adapters.store, metrics);
      const projector = await startProjector({ pool: db.pool, store, feed, events });
      const served = await platform.serveMetrics(metrics, {
        listener,
        log,
        health: () => platform.checkHealth(db.pool, { databaseMode: db.mode, log }),
      });
      log.info(`projecting (${platform.describeTopology(topology)})`, {
        projections: (await projector.status()).map((p) => `${p.name}:${p.role}`).join(' '),
        ...(served ? { metrics: `${served.url}/metrics` } : {}),
      });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
        // Started by `npm run stack` with an IPC channel: its end (that process died, even by
        // kill -9) stops this one too.
        if (process.send) process.once('disconnect', resolve);
      });
      // A channel listened to keeps the process alive: closed, the process ends once all below is closed.
      if (process.connected) process.disconnect();
      await projector.stop();
      await served?.close();
      await metrics.close();
      await adapters.close();
      await feed.close();
      return 0;
    }
    case 'status':
      await printStatus();
      return 0;
    case 'audit': {
      const shown = [];
      if (cmd.stream) {
        const events = await store.readStream(cmd.stream);
        shown.push(...events.filter((e) => e.position > cmd.from && (!cmd.type || e.type === cmd.type)).slice(0, cmd.limit));
      } else {
        let from = cmd.from;
        while (shown.length < cmd.limit) {
          const events = await store.readAll(from, cmd.type ? 1000 : cmd.limit - shown.length);
          if (events.length === 0) break;
          shown.push(...events.filter((e) => !cmd.type || e.type === cmd.type).slice(0, cmd.limit - shown.length));
          from = events[events.length - 1]!.position;
        }
      }
      for (const e of shown) {
        const m = e.metadata;
        console.log(
          `${String(e.position).padStart(7)}  ${m.at}  ${e.type.padEnd(26)} ${e.streamId}@${e.version}  by ${m.actorRole}:${m.actorId}  corr=${m.correlationId}${m.causationId ? ` cause=${m.causationId}` : ''}`,
        );
      }
      return 0;
    }
    case 'rebuild': {
      // Only the named projection: when the shop runs, its runner stands by here (the shop leads).
      // The swap takes in what the shop's runner applied meanwhile, and that runner goes on on the
      // new tables (ADR 0064) and tells open pages to read their lists again (ADR 0065).
      const projector = await startProjector({ pool: db.pool, store, feed: new InProcessChangeFeed(), only: cmd.name });
      try {
        // Bounded: a projection that keeps failing a batch (or leads elsewhere) must not hang the tool.
        await Promise.race([projector.caughtUp().catch(() => {}), new Promise((r) => setTimeout(r, 60_000).unref())]);
        const t0 = Date.now();
        const { position } = await projector.rebuild(cmd.name, { onProgress: progressPrinter(`rebuild ${cmd.name}`) });
        console.log(`rebuilt ${cmd.name} up to position ${position} in ${Date.now() - t0} ms`);
      } finally {
        await projector.stop();
      }
      await printStatus();
      return 0;
    }
    case 'verify': {
      let allEqual = true;
      for (const p of projections.filter((x) => cmd.name === undefined || x.name === cmd.name)) {
        // Not started: it takes no leadership and applies nothing live; it only reads the live tables.
        const runner = new ProjectionRunner(db.pool, store, new InProcessChangeFeed(), p);
        const result = await runner.verify({ onProgress: progressPrinter(`verify ${p.name}`), countEvents });
        for (const line of describeVerifyResult(result)) console.log(line);
        allEqual &&= result.equal;
      }
      return allEqual ? 0 : 1;
    }
  }
}

try {
  process.exitCode = await execute(cmd);
} catch (err) {
  console.error(`projector ${cmd.command} failed: ${describeError(err)}`);
  process.exitCode = 1;
} finally {
  await store.close();
  await db.close();
}
