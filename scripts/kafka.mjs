#!/usr/bin/env node
// A real Kafka broker on this machine, without Docker: the broker's jars come from Maven Central
// (infra/kafka/pom.xml) into a cache outside git, and one KRaft node (broker and controller in
// one JVM) runs detached with its data, log and pidfile in a state folder beside that cache.
//
//   node scripts/kafka.mjs fetch [-o]     jars into ${TVSHOP_CACHE:-~/.cache/tv-shop}/kafka-3.9.1/libs (-o: offline, from ~/.m2)
//   node scripts/kafka.mjs start [--fresh] a broker on 127.0.0.1:${KAFKA_PORT:-19092} (controller on KAFKA_CONTROLLER_PORT, port+1)
//   node scripts/kafka.mjs stop           stops the broker this script started on that port (never another one)
//   node scripts/kafka.mjs status
//
// The same as functions, for test set-ups: ensureKafka({ port }) → { brokers, reused, stop }.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const KAFKA_VERSION = '3.9.1';
export const DEFAULT_KAFKA_PORT = 19092;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const POM = path.join(ROOT, 'infra', 'kafka', 'pom.xml');
/** How long a starting broker may take to answer before we give up and show its log. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

const say = (msg) => process.stderr.write(`kafka: ${msg}\n`);

/** Where things live; all of it outside the working tree, so git never sees jars or broker data. */
export function kafkaPaths(opts = {}) {
  const env = opts.env ?? process.env;
  const cache = path.resolve(env.TVSHOP_CACHE?.trim() || path.join(os.homedir(), '.cache', 'tv-shop'));
  const port = Number(opts.port ?? (env.KAFKA_PORT?.trim() || DEFAULT_KAFKA_PORT));
  const controllerPort = Number(opts.controllerPort ?? (env.KAFKA_CONTROLLER_PORT?.trim() || port + 1));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`KAFKA_PORT must be a port number, not ${String(port)}`);
  if (!Number.isInteger(controllerPort) || controllerPort === port)
    throw new Error('KAFKA_CONTROLLER_PORT must be a port other than KAFKA_PORT');
  const home = path.join(cache, `kafka-${KAFKA_VERSION}`);
  const state = path.resolve(opts.stateDir ?? (env.KAFKA_STATE_DIR?.trim() || path.join(cache, 'kafka-run', String(port))));
  return {
    cache,
    port,
    controllerPort,
    brokers: [`127.0.0.1:${port}`],
    libs: path.join(home, 'libs'),
    /** Written last by a fetch: the jars it copied. A folder without it is an interrupted fetch. */
    manifest: path.join(home, 'libs.complete'),
    state,
    data: path.join(state, 'data'),
    properties: path.join(state, 'server.properties'),
    log4j: path.join(state, 'log4j.properties'),
    log: path.join(state, 'kafka.log'),
    pidfile: path.join(state, 'kafka.pid'),
  };
}

function need(command, args, what) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.error?.code === 'ENOENT')
    throw new Error(
      `${command} is not installed or not on PATH; ${what} (Debian: apt-get install ${command === 'mvn' ? 'maven' : 'default-jre-headless'})`,
    );
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${(r.stderr || r.stdout).trim()}`);
}

/** True when the cache holds every jar a previous fetch finished copying. */
export function kafkaFetched(opts = {}) {
  const p = kafkaPaths(opts);
  if (!existsSync(p.manifest) || !existsSync(p.libs)) return false;
  const want = readFileSync(p.manifest, 'utf8').split('\n').filter(Boolean);
  const have = new Set(readdirSync(p.libs));
  return want.length > 0 && want.every((jar) => have.has(jar));
}

/**
 * The broker's jars into the cache (about 46 MB, ~10 s from Maven Central, or offline from ~/.m2
 * with `offline`). Copied to a temporary folder and renamed into place, so an interrupted fetch
 * never looks complete. Skipped when the cache is already complete.
 */
export async function fetchKafka(opts = {}) {
  const p = kafkaPaths(opts);
  if (kafkaFetched(opts)) {
    if (!opts.quiet) say(`jars already in ${p.libs}`);
    return p.libs;
  }
  need('mvn', ['-v'], 'it fetches the Kafka broker from Maven Central (or set KAFKA_BROKERS to use a broker you run)');
  const pending = `${p.libs}.${process.pid}.tmp`;
  await rm(pending, { recursive: true, force: true });
  await mkdir(path.dirname(p.libs), { recursive: true });
  say(`fetching kafka_2.13:${KAFKA_VERSION} and its dependencies${opts.offline ? ' (offline, from ~/.m2)' : ''} into ${p.libs}`);
  const args = ['-q', '-B', ...(opts.offline ? ['-o'] : []), '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${pending}`];
  const r = spawnSync('mvn', args, { encoding: 'utf8', cwd: path.dirname(p.libs) });
  if (r.status !== 0) {
    await rm(pending, { recursive: true, force: true });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(
      `mvn could not fetch the Kafka jars${opts.offline ? ' offline (are they in ~/.m2? run once without -o)' : ' (is Maven Central reachable?)'}:\n${out}`,
    );
  }
  const jars = readdirSync(pending).filter((f) => f.endsWith('.jar'));
  if (jars.length === 0) {
    await rm(pending, { recursive: true, force: true });
    throw new Error('mvn finished but copied no jars');
  }
  await rm(p.libs, { recursive: true, force: true });
  await rename(pending, p.libs);
  await writeFile(p.manifest, `${jars.sort().join('\n')}\n`);
  say(`${jars.length} jars in ${p.libs}`);
  return p.libs;
}

/** True when a Kafka broker at `brokers` answers a metadata request within about `timeoutMs`. */
export async function kafkaAnswers(brokers, timeoutMs = 1500) {
  // A plain TCP probe first: kafkajs would otherwise spend its retries on a closed port.
  const [host, port] = brokers[0].split(':');
  const open = await new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  if (!open) return false;
  const { Kafka, logLevel } = await import('kafkajs');
  const admin = new Kafka({
    clientId: 'tvshop-kafka-script',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The pid in our pidfile, if that process is alive and is the broker we started with these properties. */
function ourBroker(p) {
  if (!existsSync(p.pidfile)) return null;
  const pid = Number(readFileSync(p.pidfile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  // A pid can be reused by an unrelated process after a reboot or crash: check it is our java.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('kafka.Kafka') || !cmdline.includes(p.properties)) return null;
  } catch {
    // No /proc (macOS): trust the pidfile, which only this script writes.
  }
  return pid;
}

const serverProperties = (p) =>
  [
    '# Written by scripts/kafka.mjs: one KRaft node (broker and controller) for local runs and tests.',
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${p.controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${p.port},CONTROLLER://127.0.0.1:${p.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${p.port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    `log.dirs=${p.data}`,
    // Topics are made on purpose (the relay and the command bus create theirs), never by a typo.
    'auto.create.topics.enable=false',
    'num.partitions=3',
    'offsets.topic.replication.factor=1',
    // Fewer offset partitions than the default 50: the first consumer group is ready sooner.
    'offsets.topic.num.partitions=5',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=5',
    // A lone consumer joins its group at once instead of waiting 3 s for others.
    'group.initial.rebalance.delay.ms=0',
    '',
  ].join('\n');

const LOG4J = [
  '# Written by scripts/kafka.mjs: the broker logs to stdout, which goes to kafka.log beside this file.',
  'log4j.rootLogger=INFO, stdout',
  'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
  'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
  'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
  'log4j.logger.kafka=INFO',
  'log4j.logger.org.apache.kafka=INFO',
  'log4j.logger.state.change.logger=WARN',
  'log4j.logger.kafka.request.logger=WARN',
  '',
].join('\n');

const tail = (file, lines = 25) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
};

/**
 * Starts a broker on 127.0.0.1:<port> unless one already answers there (then it is reused and
 * left alone: `stop` of the result does nothing). `fresh` wipes the broker's data first.
 * Resolves once a client can list topics.
 */
export async function startKafka(opts = {}) {
  const p = kafkaPaths(opts);
  const brokers = p.brokers;
  if (await kafkaAnswers(brokers)) {
    const pid = ourBroker(p);
    say(`a broker already answers on ${brokers[0]}${pid ? ` (ours, pid ${pid})` : ' (not started by this script)'}: reusing it`);
    return { brokers, reused: true, pid, log: p.log, stop: async () => {} };
  }
  need('java', ['-version'], 'the local Kafka broker is a Java program (or set KAFKA_BROKERS to use a broker you run)');
  if (!kafkaFetched(opts)) await fetchKafka({ ...opts, quiet: true });
  let pid = ourBroker(p);
  if (pid) {
    say(`our broker (pid ${pid}) is running but not answering yet; waiting for it`);
  } else {
    if (opts.fresh) await rm(p.state, { recursive: true, force: true });
    await mkdir(p.state, { recursive: true });
    await writeFile(p.properties, serverProperties(p));
    await writeFile(p.log4j, LOG4J);
    const classpath = path.join(p.libs, '*');
    if (!existsSync(path.join(p.data, 'meta.properties'))) {
      // KRaft storage is formatted once per data folder, with a cluster id of 16 random bytes. One
      // in 64 such ids starts with '-', which the tool's argument parser reads as an option.
      let clusterId = randomBytes(16).toString('base64url');
      while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
      const r = spawnSync(
        'java',
        [
          '-cp',
          classpath,
          `-Dlog4j.configuration=file:${p.log4j}`,
          'kafka.tools.StorageTool',
          'format',
          '-t',
          clusterId,
          '-c',
          p.properties,
        ],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`formatting the broker's storage failed:\n${(r.stdout + r.stderr).trim()}`);
    }
    const out = openSync(p.log, 'a');
    const child = spawn(
      'java',
      [
        '-Xms256m',
        '-Xmx512m',
        '-XX:+UseG1GC',
        '-Djava.awt.headless=true',
        `-Dlog4j.configuration=file:${p.log4j}`,
        `-Dkafka.logs.dir=${p.state}`,
        '-cp',
        classpath,
        'kafka.Kafka',
        p.properties,
      ],
      { detached: true, stdio: ['ignore', out, out] },
    );
    closeSync(out);
    child.unref();
    pid = child.pid;
    await writeFile(p.pidfile, `${pid}\n`);
    say(`started a broker on ${brokers[0]} (pid ${pid}, log ${p.log})`);
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await kafkaAnswers(brokers))) {
    if (!alive(pid)) {
      await rm(p.pidfile, { force: true });
      throw new Error(`the broker exited while starting; the end of ${p.log}:\n${tail(p.log)}`);
    }
    if (Date.now() > deadline) {
      // Ours and not answering: it is stopped rather than left running behind the error.
      await stopKafka({ ...opts, pid, quiet: true });
      throw new Error(`the broker did not answer on ${brokers[0]} within ${START_TIMEOUT_MS / 1000} s (stopped); see ${p.log}`);
    }
    await sleep(250);
  }
  say(`broker ready on ${brokers[0]}`);
  const started = pid;
  return { brokers, reused: false, pid, log: p.log, stop: () => stopKafka({ ...opts, pid: started }) };
}

/** Stops the broker this script started on the port (SIGTERM, then SIGKILL after 30 s); never any other process. */
export async function stopKafka(opts = {}) {
  const p = kafkaPaths(opts);
  const pid = ourBroker(p);
  if (!pid || (opts.pid !== undefined && opts.pid !== pid)) {
    if (!opts.quiet) say(`no broker of ours is running for port ${p.port}`);
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid) && Date.now() < deadline) await sleep(200);
  if (alive(pid)) {
    say(`pid ${pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s; killing it`);
    process.kill(pid, 'SIGKILL');
  }
  await rm(p.pidfile, { force: true });
  if (!opts.quiet) say(`stopped the broker on ${p.brokers[0]} (pid ${pid})`);
  return true;
}

export async function kafkaStatus(opts = {}) {
  const p = kafkaPaths(opts);
  return {
    brokers: p.brokers,
    answering: await kafkaAnswers(p.brokers),
    pid: ourBroker(p),
    fetched: kafkaFetched(opts),
    libs: p.libs,
    state: p.state,
    log: p.log,
  };
}

/** For test set-ups: the jars fetched if needed, and a broker running (ours or one already there). */
export async function ensureKafka(opts = {}) {
  if (!kafkaFetched(opts)) await fetchKafka(opts);
  return startKafka(opts);
}

async function main(argv) {
  const [command, ...rest] = argv;
  const flags = new Set(rest);
  const offline = flags.has('-o') || flags.has('--offline');
  switch (command) {
    case 'fetch':
      await fetchKafka({ offline });
      return 0;
    case 'start': {
      const k = await ensureKafka({ offline, fresh: flags.has('--fresh') });
      process.stdout.write(`KAFKA_BROKERS=${k.brokers.join(',')}\n`);
      return 0;
    }
    case 'stop':
      await stopKafka();
      return 0;
    case 'status': {
      const s = await kafkaStatus();
      process.stdout.write(
        [
          `brokers   ${s.brokers.join(',')} (${s.answering ? 'answering' : 'not answering'})`,
          `process   ${s.pid ? `pid ${s.pid}, started by this script` : 'none started by this script'}`,
          `jars      ${s.fetched ? s.libs : 'not fetched (node scripts/kafka.mjs fetch)'}`,
          `state     ${s.state}`,
          `log       ${s.log}`,
          '',
        ].join('\n'),
      );
      return s.answering ? 0 : 3;
    }
    default:
      process.stderr.write(
        'usage: node scripts/kafka.mjs fetch [-o] | start [--fresh] [-o] | stop | status   (env: KAFKA_PORT, TVSHOP_CACHE)\n',
      );
      return 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      say(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
