import type { Admin, Kafka, Message, Producer, TopicMessages } from 'kafkajs';
import { Partitioners } from 'kafkajs';
import type pg from 'pg';
import { migrate, type Migration } from '../db/migrate';
import { describeError } from '../errors';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/types';
import { createLogger, type Logger } from '../log';
import { LeaderElected, type LeaderRole } from '../leadership';
import { PRODUCER_RETRY, within } from './client';

/** Header names on every relayed event; the value is the recorded event's JSON. */
export const EVENT_HEADERS = {
  eventId: 'event-id',
  type: 'event-type',
  /** The event's global position in the log: what a consumer keeps as its checkpoint (ADR 0031). */
  position: 'position',
  streamVersion: 'stream-version',
  schemaVersion: 'schema-version',
  contentType: 'content-type',
} as const;

export const DEFAULT_EVENT_TOPIC_PREFIX = 'tvshop.events';
/**
 * The whole log on one partition, in global order, beside the per-category topics: projections
 * and policies join streams, so they need the log's order, not only each stream's.
 */
export const DEFAULT_LOG_TOPIC = 'tvshop.log';

export const kafkaRelayMigrations: Migration[] = [
  {
    id: '0001-kafka-relay',
    sql: `create table if not exists public.kafka_relay (
      name text primary key,
      position bigint not null default 0,
      updated_at timestamptz not null default now()
    )`,
  },
];

/** A topic name part: Kafka allows letters, digits, '.', '_' and '-'. */
const safe = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * The stream's category, the part of its id before the first '-' (`product-42` → `product`):
 * stream names say which aggregate, and so which service, owns them (packages/contracts `streams`).
 */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  const category = dash > 0 ? streamId.slice(0, dash) : '';
  return category ? safe(category) : 'other';
}

/** `tvshop.events.<category>`: one topic per kind of aggregate. */
export const eventTopicFor = (streamId: string, prefix = DEFAULT_EVENT_TOPIC_PREFIX): string => `${prefix}.${streamCategory(streamId)}`;

/** The Kafka message of one recorded event: keyed by its stream, so one stream's events share a partition and keep their order. */
export function eventMessage(e: RecordedEvent): Message {
  return {
    key: e.streamId,
    value: JSON.stringify(e),
    headers: {
      [EVENT_HEADERS.eventId]: e.eventId,
      [EVENT_HEADERS.type]: e.type,
      [EVENT_HEADERS.position]: String(e.position),
      [EVENT_HEADERS.streamVersion]: String(e.version),
      [EVENT_HEADERS.schemaVersion]: String(e.schemaVersion),
      [EVENT_HEADERS.contentType]: 'application/json',
    },
  };
}

export interface KafkaRelayOptions {
  kafka: Kafka;
  pool: pg.Pool;
  store: EventStore;
  /** Names the checkpoint row, the leader lock and the producer's transactional id; one relay per name publishes. */
  name?: string;
  /** Topic per category: `<prefix>.<category>` (default `tvshop.events`). */
  topicPrefix?: string;
  /** The one-partition topic that gets every event in global order (`tvshop.log`); null for none. */
  logTopic?: string | null;
  /** Categories whose topics are created at start (`user`, `product`, ...); a category met later gets its topic before its first event. */
  categories?: string[];
  /** Partitions of each new topic (3); topics that exist are left as they are. */
  partitions?: number;
  /** Replicas of each new topic; unset, the broker's `default.replication.factor`. */
  replicationFactor?: number;
  /** Extra topic settings for new event topics; by default they keep messages forever (`retention.ms=-1`), like the log. */
  topicConfig?: Record<string, string>;
  batchSize?: number;
  /**
   * How long one batch's transaction may take (30 s): longer, and the attempt fails and starts
   * over, so a leader cut off from Kafka lets go of its lock for a standby that may reach it.
   */
  publishTimeoutMs?: number;
  /** How often a standby tries to become the leader (ms). */
  standbyRetryMs?: number;
  log?: Logger;
}

/** How long stopping waits for a batch in flight (5 s): a stop (SIGTERM) must not wait for Kafka. */
const STOP_GRACE_MS = 5000;

export interface KafkaRelayStatus {
  name: string;
  role: LeaderRole;
  /** Everything up to this global position is acknowledged by Kafka. */
  position: number;
  head: number;
  lag: number;
  error: string | null;
}

/**
 * Publishes the event log, in order, to Kafka: a transactional (so idempotent) producer sends each
 * batch of the log's subscription in one Kafka transaction; once Kafka acknowledged the commit the
 * batch's last position is written to `public.kafka_relay`. A crash between the two republishes
 * that batch on the next start (at least once), never anything earlier, and never a stream's
 * event before an earlier one of the same stream.
 *
 * One relay per name publishes: the leader holds a session advisory lock on a connection of its
 * own (as the projection runner does); the others stand by. The producer's transactional id is
 * the relay's name, so a new leader's producer fences an old one that has not noticed it lost
 * the lock: the old one can no longer commit, so its batch can never land after the new leader's.
 * Any failure (Kafka, the database, the lock's connection) stops the attempt and starts it over
 * after a capped backoff, forever, until `stop()`.
 */
export class KafkaRelay extends LeaderElected {
  readonly name: string;
  private readonly prefix: string;
  private readonly log: Logger;
  private current = 0;
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  private sub: Subscription | null = null;
  private readonly topics = new Set<string>();

  constructor(private readonly opts: KafkaRelayOptions) {
    const name = opts.name ?? 'events';
    const log = opts.log ?? createLogger('kafka-relay');
    super({
      pool: opts.pool,
      lockKey: `kafka-relay:${name}`,
      standbyRetryMs: opts.standbyRetryMs,
      label: `relay ${name}`,
      warn: (message, extra) => log.warn(message, extra),
    });
    this.name = name;
    this.prefix = opts.topicPrefix ?? DEFAULT_EVENT_TOPIC_PREFIX;
    this.log = log;
  }

  static async migrate(pool: pg.Pool): Promise<void> {
    await migrate(pool, 'kafka-relay', kafkaRelayMigrations);
  }

  get position(): number {
    return this.current;
  }

  get logTopic(): string | null {
    return this.opts.logTopic === undefined ? DEFAULT_LOG_TOPIC : this.opts.logTopic;
  }

  topicFor(streamId: string): string {
    return eventTopicFor(streamId, this.prefix);
  }

  protected async lead(attempt: number): Promise<void> {
    const { kafka, pool, store } = this.opts;
    const admin = kafka.admin();
    this.admin = admin;
    await admin.connect();
    this.topics.clear();
    const logTopic = this.logTopic;
    if (logTopic) await this.ensureTopics([logTopic], 1);
    await this.ensureTopics((this.opts.categories ?? []).map((c) => `${this.prefix}.${safe(c)}`));
    if (!this.isCurrent(attempt)) return;
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Bounded, so that a send fails rather than waits forever for a broker that is gone.
      retry: PRODUCER_RETRY,
      transactionalId: `tvshop-relay-${this.name}`,
      // Java's partitioner (murmur2 of the key): a stream lands on the same partition whoever produces it.
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    this.producer = producer;
    await producer.connect();
    // kafkajs registers the transactional id only at the first transaction: one opened and
    // aborted here does it, which fences any older producer of this relay (a leader that lost its
    // lock without noticing) from committing, before the checkpoint is read.
    const fence = await producer.transaction();
    await fence.abort();
    if (!this.isCurrent(attempt)) return;
    // The checkpoint is read after the fence: whatever an old leader committed is below it or republished after it.
    await pool.query('insert into public.kafka_relay (name) values ($1) on conflict do nothing', [this.name]);
    const { rows } = await pool.query<{ position: string }>('select position from public.kafka_relay where name = $1', [this.name]);
    if (!this.isCurrent(attempt)) return;
    this.current = Number(rows[0]?.position ?? 0);
    this.lastError = null;
    this.log.info(`relay ${this.name} leads; publishing from position ${this.current}`);
    this.sub = store.subscribe({
      from: this.current,
      batchSize: this.opts.batchSize ?? 200,
      onBatch: async (batch) => {
        if (!this.isCurrent(attempt)) throw new Error('this relay attempt was stopped');
        try {
          // A batch out is what makes its next failure a first one again (a fast restart).
          if ((await this.publish(batch.events, attempt)) > 0) this.progressed(attempt);
        } catch (err) {
          // Kafka or the checkpoint failed: start over from the stored checkpoint with a new producer.
          this.failed(attempt, err);
          throw err;
        }
      },
      onError: (err) => {
        this.lastError = describeError(err);
      },
    });
  }

  /** One batch: its topics made, sent in one Kafka transaction, committed, then the checkpoint moved. Returns how many events it published. */
  private async publish(all: RecordedEvent[], attempt: number): Promise<number> {
    const events = all.filter((e) => e.position > this.current);
    if (events.length === 0) return 0;
    const byTopic = new Map<string, Message[]>();
    for (const e of events) {
      const topic = this.topicFor(e.streamId);
      const list = byTopic.get(topic) ?? [];
      list.push(eventMessage(e));
      byTopic.set(topic, list);
    }
    await this.ensureTopics([...byTopic.keys()]);
    const topicMessages: TopicMessages[] = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    // The same messages, in position order, on the log's single partition; in the same transaction.
    if (this.logTopic) topicMessages.push({ topic: this.logTopic, messages: events.map(eventMessage) });
    const tx = await this.producer!.transaction();
    const timeoutMs = this.opts.publishTimeoutMs ?? 30_000;
    const sent = async () => {
      await tx.sendBatch({ topicMessages, acks: -1 });
      await tx.commit();
    };
    try {
      await within(sent(), timeoutMs, `relay ${this.name}: publishing a batch`);
    } catch (err) {
      // Bounded too: with the broker gone the abort would wait as long. An unfinished
      // transaction is aborted anyway by the next producer of this transactional id.
      await within(tx.abort(), STOP_GRACE_MS, 'aborting').catch(() => {});
      throw err;
    }
    // A stop gave up waiting for this batch (`release`): a later attempt owns the checkpoint now,
    // and publishes this batch again from it.
    if (!this.isCurrent(attempt)) throw new Error('this relay attempt was stopped');
    const to = events[events.length - 1]!.position;
    // Guarded by the old value: if someone else moved it, this relay is no longer the leader it thinks it is.
    const moved = await this.opts.pool.query(
      'update public.kafka_relay set position = $2, updated_at = now() where name = $1 and position = $3',
      [this.name, to, this.current],
    );
    if (moved.rowCount !== 1) throw new Error(`the checkpoint of relay ${this.name} was moved by someone else`);
    this.current = to;
    return events.length;
  }

  /** Creates the topics not yet known to exist; `createTopics` leaves existing ones (and their partition counts) alone. */
  private async ensureTopics(topics: string[], partitions = this.opts.partitions ?? 3): Promise<void> {
    const missing = topics.filter((t) => !this.topics.has(t));
    if (missing.length === 0) return;
    await this.admin!.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: partitions,
        ...(this.opts.replicationFactor ? { replicationFactor: this.opts.replicationFactor } : {}),
        configEntries: Object.entries({ 'retention.ms': '-1', ...this.opts.topicConfig }).map(([name, value]) => ({ name, value })),
      })),
    });
    for (const t of missing) this.topics.add(t);
  }

  /**
   * Stops this attempt's work: subscription (waiting a while for a batch in flight), producer,
   * admin. Never longer than a few seconds, whatever Kafka does: a batch still in flight then
   * moves no checkpoint (and its commit is fenced by the next producer of the transactional id).
   */
  protected async release(): Promise<void> {
    const sub = this.sub;
    this.sub = null;
    if (sub)
      await within(sub.stop(), STOP_GRACE_MS, `relay ${this.name}: a batch in flight`).catch((err: unknown) =>
        this.log.warn(`relay ${this.name} stopped without waiting for its batch in flight`, { error: describeError(err) }),
      );
    const producer = this.producer;
    const admin = this.admin;
    this.producer = null;
    this.admin = null;
    await within(Promise.all([producer?.disconnect(), admin?.disconnect()]), STOP_GRACE_MS, 'disconnecting').catch(() => {});
  }

  /** Resolves once everything stored when it was called is acknowledged by Kafka (leader only). */
  async caughtUp(): Promise<void> {
    const head = await this.opts.store.headPosition();
    while (this.current < head) {
      if (this.closed) throw new Error(`relay ${this.name} is stopped`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async status(): Promise<KafkaRelayStatus> {
    const head = await this.opts.store.headPosition();
    let position = this.current;
    if (this.role !== 'leader') {
      const { rows } = await this.opts.pool.query<{ position: string }>('select position from public.kafka_relay where name = $1', [
        this.name,
      ]);
      position = Number(rows[0]?.position ?? 0);
    }
    return { name: this.name, role: this.role, position, head, lag: Math.max(0, head - position), error: this.lastError };
  }
}
