import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { describeError } from '../errors';
import type { EventStore, LogSource, RecordedEvent, SubscribeOptions, Subscription } from '../event-store/types';
import { createLogger, type Logger } from '../log';
import { backoffMs } from '../retry';
import { topicsReady } from './client';
import { DEFAULT_LOG_TOPIC, EVENT_HEADERS } from './relay';

/**
 * The log's topic: every event in global order, on one partition (ADR 0031). Projections and
 * policies join streams (a booking shows its product's name; a sale cancels the product's
 * bookings), so they need the log's order, not only each stream's; the per-category topics keep
 * per-stream order for consumers that need no more.
 */
export const LOG_TOPIC = DEFAULT_LOG_TOPIC;

/**
 * The event log as Kafka delivers it, for projections and policies (EVENT_BUS=kafka): the same
 * `subscribe` as the store's, so the projection runner and the policies run unchanged on it.
 *
 * Exactly-once effects: a consumer stores the global position of what it applied in the same
 * transaction as its effects (its checkpoint); this source skips every event at or before the
 * position it was started from or has delivered, so a redelivery (a restart before the offset
 * was committed, the relay's at-least-once republish) changes nothing. The Kafka offset is
 * committed only after the batch was applied, so Kafka never runs ahead of the checkpoint.
 * A subscription from 0 (a new or rebuilt read model) seeks to the topic's start whatever the
 * group had committed.
 */
export class KafkaLogSource implements LogSource {
  private readonly log: Logger;
  constructor(
    private readonly kafka: Kafka,
    /** The store: its head for `caughtUp()`, its events to check that what Kafka carries is this log's. */
    private readonly store: Pick<EventStore, 'headPosition' | 'readAll'>,
    private readonly opts: { topic?: string; groupPrefix?: string; log?: Logger } = {},
  ) {
    this.log = opts.log ?? createLogger('kafka-log');
  }

  subscribe(opts: SubscribeOptions): Subscription {
    if (!opts.name) throw new Error('a Kafka subscription needs a name: it is its consumer group');
    return new KafkaLogSubscription(this.kafka, this.store, {
      ...opts,
      topic: this.opts.topic ?? LOG_TOPIC,
      groupId: `${this.opts.groupPrefix ?? 'tvshop'}.${opts.name}`,
      log: this.log,
    });
  }

  headPosition(): Promise<number> {
    return this.store.headPosition();
  }
}

/**
 * A relayed message back into the event it carries; null for a message that is not one (no
 * position header: the relay always sends one), which a consumer skips. A message that names a
 * position but does not carry that position's event (a value that is not JSON, or another
 * event) throws: skipping it would leave a hole in every read model fed from the topic, so its
 * batch fails, saying which position, and is tried again rather than passed over.
 */
export function eventOf(message: KafkaMessage): RecordedEvent | null {
  const position = positionOf(message);
  if (position === null) return null;
  let event: unknown = null;
  try {
    event = message.value ? JSON.parse(message.value.toString()) : null;
  } catch {
    // Said below.
  }
  if (typeof event === 'object' && event !== null && (event as RecordedEvent).position === position) return event as RecordedEvent;
  throw new Error(
    `the message at offset ${message.offset} names log position ${position} but does not carry its event; nothing after it is applied`,
  );
}

/** The log position a relayed message names in its header; null for a message without one. */
export function positionOf(message: KafkaMessage): number | null {
  const named = message.headers?.[EVENT_HEADERS.position]?.toString();
  const position = Number(named);
  return named === undefined || named === '' || !Number.isSafeInteger(position) ? null : position;
}

/** How often a consumer heartbeats while a batch is applied: well within its 10 s session timeout. */
const HEARTBEAT_MS = 1000;

/**
 * Runs `work`, heartbeating meanwhile: applying a batch can take long (a policy may wait seconds
 * for one event), and a member silent for its session timeout is evicted from its group, its
 * partition given to another and its offset commit refused. kafkajs sends a heartbeat only when
 * the interval has passed, so calling it often costs nothing.
 */
async function heartbeating<T>(heartbeat: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  // A heartbeat refused (a rebalance under way) is for kafkajs to act on once the batch returns.
  const timer = setInterval(() => void heartbeat().catch(() => {}), HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

class KafkaLogSubscription implements Subscription {
  private delivered: number;
  private consumer: Consumer | null = null;
  private stopped = false;
  private failures = 0;
  private waiters: (() => void)[] = [];
  private restarting: NodeJS.Timeout | null = null;
  /** The latest start: the first, or a restart after a failure; `stop()` waits for it. */
  private starting: Promise<void>;
  /** The failed consumer's disconnect, which `stop()` also waits for. */
  private leaving: Promise<void> = Promise.resolve();

  constructor(
    private readonly kafka: Kafka,
    private readonly store: Pick<EventStore, 'headPosition' | 'readAll'>,
    private readonly opts: SubscribeOptions & { topic: string; groupId: string; log: Logger },
  ) {
    this.delivered = opts.from;
    this.starting = this.start();
  }

  get position(): number {
    return this.delivered;
  }

  private async start(): Promise<void> {
    if (this.stopped) return;
    const { topic, groupId } = this.opts;
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      retry: { retries: 5 },
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      maxWaitTimeInMs: 500,
    });
    this.consumer = consumer;
    // kafkajs gives up after its own retries (the broker gone for long): start over, forever.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && this.consumer === consumer) this.failed(payload.error);
    });
    // Stopped while this start awaited something: the consumer must not go on (or start) running.
    const abandoned = async (): Promise<boolean> => {
      if (!this.stopped) return false;
      if (this.consumer === consumer) this.consumer = null;
      await consumer.disconnect().catch(() => {});
      return true;
    };
    try {
      await this.ensureTopic(topic);
      if (await abandoned()) return;
      await consumer.connect();
      if (await abandoned()) return;
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      if (await abandoned()) return;
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async (payload) => {
          const { batch } = payload;
          const size = this.opts.batchSize ?? 500;
          let pending: { event: RecordedEvent; offset: string }[] = [];
          const apply = async () => {
            if (pending.length === 0) return;
            const events = pending.map((p) => p.event);
            const last = pending[pending.length - 1]!;
            await heartbeating(
              () => payload.heartbeat(),
              async () => {
                await this.checkSameLog(events, Number(pending[0]!.offset));
                await this.opts.onBatch({ events, position: last.event.position });
              },
            );
            this.delivered = last.event.position;
            this.failures = 0;
            payload.resolveOffset(last.offset);
            await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(Number(last.offset) + 1) }]);
            pending = [];
            this.notify();
          };
          try {
            for (const message of batch.messages) {
              if (!payload.isRunning() || payload.isStale()) return;
              const position = positionOf(message);
              // Not a relayed event, or already applied (a redelivery, a republished batch): its
              // effects are in the checkpoint, whatever its body.
              if (position === null || position <= (pending.at(-1)?.event.position ?? this.delivered)) {
                if (pending.length === 0) payload.resolveOffset(message.offset);
                continue;
              }
              const event = eventOf(message)!;
              pending.push({ event, offset: message.offset });
              if (pending.length >= size) await apply();
            }
            await apply();
            await payload.heartbeat();
            this.notify();
          } catch (err) {
            // Nothing of the failed batch counts: read it again from its first unapplied message.
            const from = pending[0]?.offset ?? batch.messages[0]?.offset;
            this.opts.onError?.(err);
            this.failures++;
            if (from !== undefined) consumer.seek({ topic: batch.topic, partition: batch.partition, offset: from });
            await new Promise((r) => setTimeout(r, backoffMs(this.failures)));
          }
        },
      });
      if (await abandoned()) return;
      // A new or rebuilt read model starts from the beginning, whatever the group had committed.
      if (this.delivered === 0) consumer.seek({ topic, partition: 0, offset: '0' });
    } catch (err) {
      this.failed(err);
    }
  }

  /**
   * A consumer may start before the relay first led (the services of `npm run stack` start
   * together): it makes the log topic as the relay would (one partition, kept forever) rather
   * than fail until the relay has. `createTopics` leaves an existing topic alone.
   */
  private async ensureTopic(topic: string): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'retention.ms', value: '-1' }] }],
      });
      await topicsReady(admin, [topic]);
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * The events Kafka carries must be this store's, event for event: a topic written by another
   * shop's relay (two databases sharing a broker and a KAFKA_TOPIC_PREFIX) would otherwise be
   * applied to this shop's read models. One read of the batch's range per batch; a mismatch stops
   * the batch (nothing applied) and is retried, loudly, until someone fixes the configuration.
   */
  private async checkSameLog(events: RecordedEvent[], firstOffset: number): Promise<void> {
    // The store's events from the batch's own first position must be exactly these, in this
    // order: a foreign event, or one missing from Kafka inside the batch, refuses it.
    const from = events[0]!.position - 1;
    const stored = await this.store.readAll(from, events.length);
    const at = events.findIndex((e, i) => stored[i]?.eventId !== e.eventId);
    if (at >= 0) {
      const e = events[at]!;
      throw new Error(
        `${this.opts.topic} carries event ${e.eventId} at position ${e.position} where this event store has ${stored[at] ? `${stored[at].eventId} at ${stored[at].position}` : 'nothing'}: ` +
          'another shop writes to these topics (give each its own KAFKA_TOPIC_PREFIX)',
      );
    }
    // Before the batch, events this consumer never delivered: another member of its group applied
    // them while the partition was theirs (its own `delivered` is not the group's), which is why
    // Kafka has messages before this one. At the topic's very start, they are missing from Kafka.
    if (firstOffset === 0 && from > this.delivered) {
      const [missing] = await this.store.readAll(this.delivered, 1);
      if (missing && missing.position <= from)
        throw new Error(
          `${this.opts.topic} starts at position ${from + 1} but this event store has ${missing.eventId} at ${missing.position}: ` +
            'events are missing from Kafka (the topic was recreated: delete the relay checkpoint in kafka_relay so it republishes)',
        );
    }
  }

  /** The consumer broke for good: drop it and start a new one after a capped backoff. */
  private failed(err: unknown): void {
    if (this.stopped) return;
    this.failures++;
    this.opts.log.warn(`Kafka consumer ${this.opts.groupId} failed; restarting`, { error: describeError(err) });
    this.opts.onError?.(err);
    const old = this.consumer;
    this.consumer = null;
    if (old) this.leaving = Promise.all([this.leaving, old.disconnect().catch(() => {})]).then(() => {});
    this.restarting ??= setTimeout(() => {
      this.restarting = null;
      this.starting = this.start();
    }, backoffMs(this.failures));
    this.restarting.unref();
  }

  private notify(): void {
    this.waiters.splice(0).forEach((w) => w());
  }

  /** Resolves once everything stored when it was called has been delivered (the relay must be running). */
  async caughtUp(): Promise<void> {
    await this.starting;
    const head = await this.store.headPosition();
    while (this.delivered < head) {
      if (this.stopped) throw new Error(`Kafka subscription ${this.opts.groupId} stopped`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        // The last event may be one this consumer skips (no handler needs it): look again shortly.
        setTimeout(resolve, 100).unref();
      });
    }
  }

  /** Stops the consumer, and any start or restart under way: none runs once this resolves. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restarting) clearTimeout(this.restarting);
    this.restarting = null;
    await this.starting.catch(() => {});
    const consumer = this.consumer;
    this.consumer = null;
    await consumer?.disconnect().catch(() => {});
    await this.leaving;
    this.notify();
  }
}
