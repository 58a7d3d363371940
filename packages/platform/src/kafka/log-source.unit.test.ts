import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../event-store/types';
import { eventOf } from './log-source';
import { eventMessage } from './relay';

const event: RecordedEvent = {
  eventId: '3f1c2a9e-0000-4000-8000-000000000001',
  streamId: 'product-1',
  type: 'ProductListed',
  version: 0,
  position: 42,
  schemaVersion: 1,
  data: { name: 'Sony "Bravia" ✓' },
  metadata: { actorId: 'u-1', actorRole: 'Seller', correlationId: 'c-1', causationId: null, at: '2026-11-30T10:00:00.000Z' },
  recordedAt: '2026-11-30T10:00:00.000Z',
};

/** A message as a consumer gets it: what the relay sent, as buffers. */
const received = (over: { value?: string | null; position?: string | undefined } = {}): KafkaMessage => {
  const sent = eventMessage(event);
  const headers = Object.fromEntries(Object.entries(sent.headers ?? {}).map(([k, v]) => [k, Buffer.from(String(v))]));
  if ('position' in over) {
    if (over.position === undefined) delete headers.position;
    else headers.position = Buffer.from(over.position);
  }
  const value = 'value' in over ? over.value : String(sent.value);
  return {
    key: Buffer.from(event.streamId),
    value: value === null || value === undefined ? null : Buffer.from(value),
    headers,
    offset: '7',
    timestamp: '0',
    attributes: 0,
  };
};

describe('eventOf', () => {
  it('when a message is a relayed event, then it gives the event back as recorded', () => {
    expect(eventOf(received())).toEqual(JSON.parse(JSON.stringify(event)));
  });

  it('when a message has no position, then it is not a relayed event: null, and the consumer skips it', () => {
    expect(eventOf(received({ position: undefined }))).toBeNull();
    expect(eventOf(received({ position: 'x' }))).toBeNull();
  });

  it('when a message names a position but does not carry its event, then it throws naming it (a hole in the read models is worse than a stall)', () => {
    for (const value of ['{"truncated": ', 'not json at all', 'null', '7', null])
      expect(() => eventOf(received({ value }))).toThrow(/offset 7 names log position 42 but does not carry its event/);
    // A position header that is not the event's own: not this position's event.
    expect(() => eventOf(received({ position: '43' }))).toThrow(/position 43/);
  });
});
