import { START, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { AppError, ConcurrencyError } from '../errors';
import { ev } from '../testing/event-store-contract';
import {
  EventStoreDbEventStore,
  actualVersion,
  afterPosition,
  allPosition,
  claimEvent,
  claimFromVersion,
  eventIdStream,
  eventPosition,
  fromStored,
  isDomainRecord,
  isEventStoreUnavailable,
  parseClaim,
  toConcurrencyError,
  toEventData,
  toExpectedRevision,
  type StoredRecord,
} from './eventstoredb';
import { validateAppend } from './validate';

/** What EventStoreDB hands back for an event written with `toEventData`: JSON data and metadata, parsed. */
function stored(e: ReturnType<typeof toEventData>, over: Partial<StoredRecord> = {}): StoredRecord {
  return {
    streamId: 'order-1',
    id: e.id,
    revision: 3n,
    type: e.type,
    isJson: e.contentType === 'application/json',
    created: new Date('2026-11-21T10:00:01.000Z'),
    data: JSON.parse(JSON.stringify(e.data)) as unknown,
    metadata: JSON.parse(JSON.stringify(e.metadata)) as unknown,
    position: { commit: 4242n, prepare: 4242n },
    ...over,
  };
}

describe('EventStoreDB adapter: positions', () => {
  it('when an event is read from $all, then its position is its log position, and the next read starts exactly there', () => {
    expect(allPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(afterPosition(1234)).toEqual({ commit: 1234n, prepare: 1234n });
    expect(afterPosition(0)).toBe(START);
  });

  it('when the commit and prepare positions differ (an explicit transaction), then the position is refused rather than resumed wrongly', () => {
    expect(() => allPosition({ commit: 2000n, prepare: 1900n })).toThrow(/explicit transaction/);
  });

  it('when a stream read gives an event, then its position is the prepare position, unique per event of one append', () => {
    expect(eventPosition({ commit: 500n, prepare: 620n })).toBe(620);
    expect(() => eventPosition(undefined)).toThrow(/22\.10 or later/);
  });

  it('when a log position does not fit a safe integer, then it is refused instead of rounded', () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    expect(allPosition({ commit: max, prepare: max })).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => allPosition({ commit: max + 1n, prepare: max + 1n })).toThrow(/2\^53/);
    expect(() => afterPosition(-1)).toThrow(/non-negative/);
    expect(() => afterPosition(1.5)).toThrow(/non-negative/);
  });
});

describe('EventStoreDB adapter: expected versions and conflicts', () => {
  it('when the port names an expected version, then EventStoreDB gets the same expectation', () => {
    expect(toExpectedRevision('no_stream')).toBe('no_stream');
    expect(toExpectedRevision(-1)).toBe('no_stream');
    expect(toExpectedRevision('any')).toBe('any');
    expect(toExpectedRevision('stream_exists')).toBe('stream_exists');
    expect(toExpectedRevision(0)).toBe(0n);
    expect(toExpectedRevision(41)).toBe(41n);
  });

  it('when EventStoreDB reports a wrong expected version, then it becomes the typed 409 with the actual version (-1: no stream)', () => {
    const moved = new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected: 5n, current: 0n });
    const err = toConcurrencyError('order-1', 5, moved);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ kind: 'concurrency', status: 409, streamId: 'order-1', expected: '5', actual: 0 });
    const missing = new WrongExpectedVersionError(undefined, { streamName: 'order-2', expected: 'stream_exists', current: 'no_stream' });
    expect(toConcurrencyError('order-2', 'stream_exists', missing)).toMatchObject({ actual: -1, expected: 'stream_exists' });
    expect(actualVersion(12n)).toBe(12);
  });

  it('when a claim is written, then it says the lowest version the events can take', () => {
    expect(claimFromVersion(4)).toBe(5);
    expect(claimFromVersion(-1)).toBe(0);
    expect(claimFromVersion('no_stream')).toBe(0);
    expect(claimFromVersion('any')).toBe(0);
    expect(claimFromVersion('stream_exists')).toBe(0);
  });
});

describe('EventStoreDB adapter: events and claims', () => {
  it('when an event is stored and read back, then type, data, metadata and schema version survive, and recorded fields come from the store', () => {
    const e = { ...ev('PaymentCaptured', { amount: 1250, items: ['a', 'b'] }), schemaVersion: 2 };
    e.metadata = { ...e.metadata, causationId: 'cause-1', commandId: 'cmd-1' };
    const data = toEventData(e);
    expect(data).toMatchObject({ id: e.eventId, type: 'PaymentCaptured', contentType: 'application/json' });
    expect(data.metadata).toMatchObject({ schemaVersion: 2, $correlationId: 'c-1', $causationId: 'cause-1', commandId: 'cmd-1' });
    expect(fromStored(stored(data))).toEqual({
      eventId: e.eventId,
      streamId: 'order-1',
      version: 3,
      position: 4242,
      type: 'PaymentCaptured',
      schemaVersion: 2,
      data: { amount: 1250, items: ['a', 'b'] },
      metadata: e.metadata,
      recordedAt: '2026-11-21T10:00:01.000Z',
    });
  });

  it('when an event has no schema version or causation, then it reads back as version 1 with a null causation', () => {
    const e = ev();
    const data = toEventData(e);
    expect(data.metadata).not.toHaveProperty('$causationId');
    const back = fromStored(stored(data));
    expect(back.schemaVersion).toBe(1);
    expect(back.metadata).toEqual(e.metadata);
    expect(back.metadata.causationId).toBeNull();
  });

  it('when EventStoreDB gives the id in upper case, then the port still sees the id it appended', () => {
    const e = ev();
    expect(fromStored(stored(toEventData(e), { id: e.eventId.toUpperCase() })).eventId).toBe(e.eventId);
  });

  it('when a stored event has no JSON metadata, then reading it fails loudly instead of inventing metadata', () => {
    const data = toEventData(ev());
    expect(() => fromStored(stored(data, { metadata: undefined }))).toThrow(/not written by this adapter/);
    expect(() => fromStored(stored(data, { metadata: new Uint8Array([1, 2]) }))).toThrow(/not written by this adapter/);
    expect(() => fromStored(stored(data, { isJson: false }))).toThrow(/not written by this adapter/);
  });

  it('when a claim is written, then it reads back, and its id is the same for a retried append of the same event to the same stream', () => {
    const id = ev().eventId;
    const claim = claimEvent(id, { streamId: 'order-1', fromVersion: 3 });
    expect(parseClaim({ type: claim.type, data: claim.data })).toEqual({ streamId: 'order-1', fromVersion: 3 });
    expect(claimEvent(id.toUpperCase(), { streamId: 'order-1', fromVersion: 7 }).id).toBe(claim.id);
    expect(claimEvent(id, { streamId: 'order-2', fromVersion: 3 }).id).not.toBe(claim.id);
    expect(parseClaim({ type: 'SomethingElse', data: { streamId: 'order-1', fromVersion: 3 } })).toBeNull();
    expect(parseClaim({ type: claim.type, data: { streamId: 'order-1' } })).toBeNull();
  });

  it('when streams are named, then claim streams and system streams are never delivered and no valid domain stream is a claim stream', () => {
    const id = ev().eventId;
    expect(eventIdStream(id.toUpperCase())).toBe(`_eventid-${id}`);
    expect(() => validateAppend(eventIdStream(id), [ev()], 'any')).toThrow(AppError);
    expect(isDomainRecord(eventIdStream(id), 'EventIdClaimed')).toBe(false);
    expect(isDomainRecord('$stats-127.0.0.1:2113', '$statsCollected')).toBe(false);
    expect(isDomainRecord('$ce-order', '$>')).toBe(false);
    expect(isDomainRecord('order-1', 'OrderPlaced')).toBe(true);
    expect(isDomainRecord('order-1', '$metadata')).toBe(false);
  });
});

describe('EventStoreDB adapter: outages', () => {
  it('when EventStoreDB is unavailable, then the failure counts as an outage; a conflict does not', () => {
    expect(isEventStoreUnavailable(new UnavailableError(undefined, '14 UNAVAILABLE: No connection established'))).toBe(true);
    expect(isEventStoreUnavailable(new Error('Failed to discover after 10 attempts.'))).toBe(true);
    expect(isEventStoreUnavailable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isEventStoreUnavailable(new WrongExpectedVersionError(undefined, { streamName: 's-1', expected: 0n, current: 1n }))).toBe(false);
  });

  it('when nothing listens at the address, then connect fails with the typed 503', async () => {
    const err = await EventStoreDbEventStore.connect('esdb://127.0.0.1:1?tls=false&defaultDeadline=5000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
  });
});
