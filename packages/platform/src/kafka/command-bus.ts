import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Admin, Consumer, EachMessagePayload, Kafka, Message, Producer } from 'kafkajs';
import { Partitioners } from 'kafkajs';
import {
  InProcessCommandBus,
  readEnvelope,
  type CommandBus,
  type CommandEnvelope,
  type CommandHandlerFn,
  type CommandReply,
} from '../commands/transport';
import { AppError, type AppErrorJSON } from '../errors';
import { createLogger, type Logger } from '../log';
import { PRODUCER_RETRY, topicsReady, within } from './client';
import { SERVICES, type Service } from '../topology';

/**
 * The producer of command requests: idempotent and one request at a time per broker, so a
 * retried send neither doubles nor reorders them; retried a bounded number of times, so a send
 * fails while Kafka is gone (and the bus makes a new one then: `renewRequests`).
 */
const requestProducer = (kafka: Kafka): Producer =>
  kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    retry: PRODUCER_RETRY,
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });

/** Header names on command requests and replies. */
export const COMMAND_HEADERS = {
  requestId: 'request-id',
  replyTo: 'reply-to',
  /** Epoch milliseconds after which the sender has given up: the service skips the command then. */
  deadline: 'deadline',
  commandType: 'command-type',
  contentType: 'content-type',
} as const;

/** How long a service's consumer may take to join its group (`ready()`). */
const JOIN_TIMEOUT_MS = 90_000;

/** What crosses the wire back: the reply itself, or a typed error in the HTTP transport's JSON form. */
type WireAnswer = CommandReply | { error: AppErrorJSON };

export interface KafkaCommandBusOptions {
  kafka: Kafka;
  /** Names this process's reply topic `<prefix>.replies.<instanceId>`; unset, host, pid and a random part. Never share one between live processes. */
  instanceId?: string;
  /** `tvshop`: request topics `<prefix>.commands.<service>`, consumer groups `<prefix>.<service>`. */
  topicPrefix?: string;
  /** Services this process sends to over Kafka when it has no handler of its own for them (all three by default). */
  remote?: Service[];
  /** How long a sender waits for a reply before answering 503 (30 s, as the HTTP transport). */
  timeoutMs?: number;
  /**
   * How many requests may wait for the producer (1000). While Kafka is away they pile up until
   * their deadlines; past this many, a command is refused at once with 503 rather than queued.
   */
  maxQueued?: number;
  /** Partitions of a new request topic (3); one aggregate's commands always share one. */
  partitions?: number;
  replicationFactor?: number;
  log?: Logger;
}

/**
 * Whether the bus still takes commands and replies: `degraded` once kafkajs gave up on one of its
 * consumers (a crash it does not restart from), with what crashed it. It stays so: nothing in this
 * process starts that consumer again, so only a restart of the process recovers.
 */
export type KafkaCommandBusHealth = { status: 'ok' } | { status: 'degraded'; reason: string; error: Error };

interface Pending {
  resolve: (reply: CommandReply) => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Timeout;
}

/** A request waiting for the producer; after `deadline` (epoch ms) its sender has been answered 503. */
interface Queued {
  topic: string;
  message: Message;
  deadline: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const header = (headers: EachMessagePayload['message']['headers'], name: string): string | undefined => {
  const v = headers?.[name];
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined ? undefined : one.toString();
};

/**
 * The command-transport port over Kafka. A command for a service goes to its request topic
 * `tvshop.commands.<service>`, keyed by aggregate id so one aggregate's commands stay in order;
 * the service's processes share the consumer group `tvshop.<service>` and answer on the sender's
 * own reply topic `tvshop.replies.<instance>`, correlated by a request id header. No answer within
 * the timeout is a 503 ('unavailable'), as an unreachable service is over HTTP. Typed errors cross
 * the wire in the HTTP transport's JSON form, so a 404/409/422 stays one.
 *
 * Handlers registered in this process take this process's own commands in process, as
 * HttpCommandBus does (no broker round trip, and a one-process deployment works without Kafka
 * being fast); they also take the commands other processes send through their service's topic.
 * Idempotency is the handler's: a command redelivered after a crash has the same command id.
 */
export class KafkaCommandBus implements CommandBus {
  private readonly local = new InProcessCommandBus();
  private readonly pending = new Map<string, Pending>();
  private readonly serving = new Map<Service, Promise<Consumer>>();
  private readonly prefix: string;
  private readonly log: Logger;
  private readonly remote: Set<Service>;
  readonly replyTopic: string;
  private stopped = false;
  /** Requests waiting for the producer, in the order `send` was called. */
  private outbox: Queued[] = [];
  private flushing = false;
  /** The first consumer kafkajs gave up on (`health()`). */
  private failure: { reason: string; error: Error } | undefined;
  /** The request producer's connection (a new producer's after a failed send). */
  private requestsReady: Promise<void> = Promise.resolve();

  private constructor(
    private readonly opts: KafkaCommandBusOptions,
    private readonly admin: Admin,
    private requests: Producer,
    private readonly replies: Producer,
    private readonly replyConsumer: Consumer,
    readonly instanceId: string,
  ) {
    this.prefix = opts.topicPrefix ?? 'tvshop';
    this.log = opts.log ?? createLogger('command-kafka');
    this.remote = new Set(opts.remote ?? SERVICES);
    this.replyTopic = `${this.prefix}.replies.${instanceId}`;
  }

  /** Connects, creates the request topics and this process's reply topic, and listens for replies. */
  static async start(opts: KafkaCommandBusOptions): Promise<KafkaCommandBus> {
    const prefix = opts.topicPrefix ?? 'tvshop';
    const instanceId = (opts.instanceId ?? `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`).replace(/[^a-zA-Z0-9._-]/g, '_');
    const { kafka } = opts;
    const admin = kafka.admin();
    const requests = requestProducer(kafka);
    // A reply is worth little once its sender gave up, so it is retried briefly instead of holding up the next command.
    const replies = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      retry: { retries: 2 },
    });
    const replyConsumer = kafka.consumer({ groupId: `${prefix}.replies.${instanceId}`, maxWaitTimeInMs: 1000 });
    const bus = new KafkaCommandBus(opts, admin, requests, replies, replyConsumer, instanceId);
    try {
      await admin.connect();
      const config = (entries: Record<string, string>) => Object.entries(entries).map(([name, value]) => ({ name, value }));
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          ...SERVICES.map((s) => ({
            topic: bus.requestTopic(s),
            numPartitions: opts.partitions ?? 3,
            ...(opts.replicationFactor ? { replicationFactor: opts.replicationFactor } : {}),
            // A command nobody took within a day is long past its deadline.
            configEntries: config({ 'retention.ms': String(24 * 3600_000) }),
          })),
          {
            topic: bus.replyTopic,
            numPartitions: 1,
            ...(opts.replicationFactor ? { replicationFactor: opts.replicationFactor } : {}),
            // Left behind only by a process that crashed; its replies are worthless after a few minutes.
            configEntries: config({ 'retention.ms': String(3600_000) }),
          },
        ],
      });
      await topicsReady(admin, [...SERVICES.map((s) => bus.requestTopic(s)), bus.replyTopic]);
      await requests.connect();
      await replies.connect();
      bus.watch(replyConsumer, 'replies').catch(() => {});
      await replyConsumer.connect();
      // From the beginning: the topic is this process's own and new, so no reply is missed while joining.
      await replyConsumer.subscribe({ topics: [bus.replyTopic], fromBeginning: true });
      await replyConsumer.run({ eachMessage: async (payload) => bus.onReply(payload) });
    } catch (err) {
      await bus.stop().catch(() => {});
      throw err;
    }
    return bus;
  }

  requestTopic(service: Service): string {
    return `${this.prefix}.commands.${service}`;
  }

  /**
   * Handles `service`'s commands: in process for this process's own sends, and from the service's
   * request topic for everyone else's (consumer group `<prefix>.<service>`, shared by every
   * process that registers the service). `ready()` resolves once the group is joined.
   */
  register(service: Service, handler: CommandHandlerFn): void {
    this.local.register(service, handler);
    if (this.stopped || this.serving.has(service)) return;
    const consumer = this.serve(service);
    consumer.catch((err: unknown) => this.log.error(`could not take ${service} commands from Kafka`, err));
    this.serving.set(service, consumer);
  }

  /** `ok`, or `degraded` once a consumer crashed for good: the service's /health answers 503 then. */
  health(): KafkaCommandBusHealth {
    return this.failure ? { status: 'degraded', ...this.failure } : { status: 'ok' };
  }

  /**
   * Watches a consumer for crashes. kafkajs restarts a consumer itself after a retriable error
   * (`restart: true`: only logged here); after any other it has disconnected it and leaves it so,
   * and this process silently stops taking commands (or replies). The bus is then degraded, so
   * that the health check says so. Returns a promise that rejects
   * on such a crash (never resolves otherwise), for whoever waits on the consumer to join.
   */
  private watch(consumer: Consumer, what: string): Promise<never> {
    return new Promise<never>((_resolve, reject) => {
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (this.stopped) return;
        if (payload.restart) return this.log.warn(`the ${what} consumer crashed; kafkajs restarts it`, { error: payload.error });
        this.log.error(`the ${what} consumer crashed and kafkajs gave up on it: this process takes no more ${what}`, payload.error);
        this.failure ??= { reason: `Kafka consumer of ${what} crashed`, error: payload.error };
        reject(payload.error);
      });
    });
  }

  /** Resolves when every registered service takes commands from its topic (rejects if one could not). */
  async ready(): Promise<void> {
    await Promise.all(this.serving.values());
  }

  private async serve(service: Service): Promise<Consumer> {
    // A dead member's partitions move to a live one after the session timeout: 10 s, not kafkajs's 30 s.
    const consumer = this.opts.kafka.consumer({
      groupId: `${this.prefix}.${service}`,
      maxWaitTimeInMs: 1000,
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
    });
    const crashed = this.watch(consumer, `${service} commands`);
    crashed.catch(() => {});
    const joined = new Promise<void>((resolve) => {
      const off = consumer.on(consumer.events.GROUP_JOIN, () => {
        off();
        resolve();
      });
    });
    try {
      await consumer.connect();
      // From the beginning for a group's very first start: commands sent before it existed are taken if not yet expired.
      await consumer.subscribe({ topics: [this.requestTopic(service)], fromBeginning: true });
      await consumer.run({
        // Partitions in parallel, each one's commands in order: one aggregate's commands never overtake each other.
        partitionsConsumedConcurrently: this.opts.partitions ?? 3,
        eachMessage: async (payload) => this.onRequest(service, payload),
      });
      // Bounded, so that `ready()` says it failed rather than waits forever (kafkajs may have
      // given up on joining); a rebalance waits for the other members up to a minute.
      // A crash kafkajs does not restart from while joining fails it at once.
      await within(Promise.race([joined, crashed]), JOIN_TIMEOUT_MS, `joining the consumer group of ${service}`);
    } catch (err) {
      // `stop()` only disconnects the consumers that started; this one must not live on.
      await consumer.disconnect().catch(() => {});
      throw err;
    }
    return consumer;
  }

  private async onRequest(service: Service, { message }: EachMessagePayload): Promise<void> {
    const requestId = header(message.headers, COMMAND_HEADERS.requestId);
    const replyTo = header(message.headers, COMMAND_HEADERS.replyTo);
    const deadline = Number(header(message.headers, COMMAND_HEADERS.deadline) ?? Infinity);
    if (!requestId || !replyTo) return this.log.warn(`dropped a ${service} command without request id or reply topic`);
    // The sender has answered 503 already; doing the command now would do what it was told had failed.
    if (Date.now() > deadline) return this.log.warn(`skipped a ${service} command past its deadline`, { requestId });
    let answer: WireAnswer;
    try {
      let raw: unknown;
      try {
        raw = JSON.parse(message.value?.toString('utf8') ?? '');
      } catch {
        throw new AppError('validation', 'The command is not JSON');
      }
      const envelope = readEnvelope(raw);
      if (envelope.service !== service) throw new AppError('validation', `This topic takes ${service} commands`, { field: 'service' });
      answer = await this.local.send(envelope);
    } catch (err) {
      if (err instanceof AppError) answer = { error: err.toJSON() };
      else {
        this.log.error(`${service} command failed`, err);
        answer = { error: { kind: 'unavailable', message: 'The command failed' } };
      }
    }
    if (Date.now() > deadline) return;
    const sent = this.replies.send({
      topic: replyTo,
      messages: [{ key: requestId, value: JSON.stringify(answer), headers: { [COMMAND_HEADERS.requestId]: requestId } }],
    });
    // Not past the deadline: the sender no longer waits then, and the partition's next commands do.
    await (Number.isFinite(deadline) ? within(sent, Math.max(1, deadline - Date.now()), 'sending a reply') : sent).catch((err: unknown) =>
      this.log.warn(`could not send a ${service} reply to ${replyTo}`, { error: err }),
    );
  }

  private async onReply({ message }: EachMessagePayload): Promise<void> {
    const requestId = header(message.headers, COMMAND_HEADERS.requestId);
    const waiting = requestId ? this.pending.get(requestId) : undefined;
    // A reply after its timeout, or a redelivered one: its sender has already been answered.
    if (!requestId || !waiting) return;
    this.pending.delete(requestId);
    clearTimeout(waiting.timer);
    let body: WireAnswer | null = null;
    try {
      body = JSON.parse(message.value?.toString('utf8') ?? '') as WireAnswer;
    } catch {
      // Answered below as a broken reply.
    }
    if (body && 'error' in body) waiting.reject(AppError.fromJSON(body.error));
    else if (body && 'position' in body) waiting.resolve(body);
    else waiting.reject(new AppError('unavailable', 'The service answered something that is not a command reply'));
  }

  async send(envelope: CommandEnvelope): Promise<CommandReply> {
    const service = envelope.service;
    // This process's own handler takes its own commands; a service not reached over Kafka is 'not_configured', as in process.
    if (this.serving.has(service) || !this.remote.has(service)) return this.local.send(envelope);
    if (this.stopped) throw new AppError('unavailable', `The ${service} service is unavailable; try again`);
    this.refuseWhenFull(service);
    const requestId = randomUUID();
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const answered = new Promise<CommandReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        this.log.warn(`${service} did not answer within ${timeoutMs} ms`, { requestId, type: envelope.type });
        reject(new AppError('unavailable', `The ${service} service is unavailable; try again`));
      }, timeoutMs);
      this.pending.set(requestId, { resolve, reject, timer });
    });
    // The timeout bounds the whole call: a send stuck behind a broker that went silent must not
    // hold the caller past it (the answer is then a 503, never a hang), and nobody is left
    // waiting on `answered` unobserved.
    answered.catch(() => {});
    try {
      await Promise.race([
        answered.then(() => undefined),
        this.enqueue(
          this.requestTopic(service),
          {
            key: envelope.aggregateId,
            value: JSON.stringify(envelope),
            headers: {
              [COMMAND_HEADERS.requestId]: requestId,
              [COMMAND_HEADERS.replyTo]: this.replyTopic,
              [COMMAND_HEADERS.deadline]: String(deadline),
              [COMMAND_HEADERS.commandType]: envelope.type,
              [COMMAND_HEADERS.contentType]: 'application/json',
            },
          },
          deadline,
        ),
      ]);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const waiting = this.pending.get(requestId);
      if (waiting) {
        clearTimeout(waiting.timer);
        this.pending.delete(requestId);
      }
      this.log.error(`could not send a ${service} command to Kafka`, err);
      throw new AppError('unavailable', `The ${service} service is unavailable; try again`);
    }
    return answered;
  }

  /**
   * Queues a request for the producer. kafkajs does not keep concurrent `send` calls in call order
   * (each first awaits its own metadata look-up), so two commands for one aggregate sent back to
   * back could swap. One send at a time keeps call order; whatever queued meanwhile goes out
   * together in the next one, so commands sent at once still share a round trip.
   */
  private enqueue(topic: string, message: Message, deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outbox.push({ topic, message, deadline, resolve, reject });
      void this.flush();
    });
  }

  /**
   * One send at a time, each bounded by its requests' deadlines: past the last one every sender
   * in it has been answered 503 and its service would skip them all, so the next requests need
   * not wait for it (kafkajs may still be retrying it; whatever it lands then is skipped).
   * Requests already past their deadline are dropped, not sent: after Kafka was away, only
   * what someone still waits for goes out.
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    while (this.outbox.length > 0) {
      this.dropExpired();
      const batch = this.outbox.splice(0);
      if (batch.length === 0) break;
      const byTopic = new Map<string, Message[]>();
      for (const { topic, message } of batch) byTopic.set(topic, [...(byTopic.get(topic) ?? []), message]);
      const waitMs = Math.max(1, Math.max(...batch.map((b) => b.deadline)) - Date.now());
      try {
        const requests = this.requests;
        await within(
          this.requestsReady.then(() =>
            requests.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) }),
          ),
          waitMs,
          'sending commands to Kafka',
        );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
        this.renewRequests();
      }
    }
    this.flushing = false;
  }

  /**
   * After a send that failed or was given up on, the next ones go through a new producer.
   * kafkajs takes back a failed batch's sequence numbers, though the broker may have written it
   * (an error after the write, a timeout); the next batch would then reuse them and the broker
   * would drop it as a duplicate, or refuse it as out of order for good. A new producer has a new
   * id and starts its sequences again; the old one is disconnected, which also ends a send it was
   * still retrying (so nothing abandoned goes out later).
   */
  private renewRequests(): void {
    if (this.stopped) return;
    const old = this.requests;
    this.requests = requestProducer(this.opts.kafka);
    const connecting = this.requests.connect();
    // A failed connect fails the next send, which renews it again.
    this.requestsReady = connecting;
    connecting.catch(() => {});
    void old.disconnect().catch(() => {});
  }

  /** Drops the queued requests whose senders have been answered 503 already (their deadline passed). */
  private dropExpired(): void {
    const now = Date.now();
    const expired = this.outbox.filter((q) => q.deadline <= now);
    if (expired.length === 0) return;
    this.outbox = this.outbox.filter((q) => q.deadline > now);
    for (const q of expired) q.reject(new Error('the command waited past its deadline for Kafka'));
  }

  /** A full queue (Kafka away for a while, commands still coming): the command is refused at once, as 503. */
  private refuseWhenFull(service: Service): void {
    const max = this.opts.maxQueued ?? 1000;
    if (this.outbox.length < max) return;
    this.dropExpired();
    if (this.outbox.length < max) return;
    this.log.warn(`refused a ${service} command: ${this.outbox.length} commands already wait for Kafka`);
    throw new AppError('unavailable', `The ${service} service is unavailable; try again`);
  }

  /**
   * Stops taking and sending commands: waiting senders get 503, the consumers leave their groups
   * (another process of the service takes over their partitions), and this process's reply topic
   * and group are deleted, since no one will read them again.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const consumers = await Promise.all([...this.serving.values()].map((c) => c.catch(() => null)));
    for (const c of consumers) await c?.disconnect().catch(() => {});
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new AppError('unavailable', 'The command bus is stopping; try again'));
      this.pending.delete(id);
    }
    await this.replyConsumer.disconnect().catch(() => {});
    await this.requests.disconnect().catch(() => {});
    await this.replies.disconnect().catch(() => {});
    await this.admin.deleteTopics({ topics: [this.replyTopic] }).catch(() => {});
    await this.admin.deleteGroups([`${this.prefix}.replies.${this.instanceId}`]).catch(() => {});
    await this.admin.disconnect().catch(() => {});
  }
}
