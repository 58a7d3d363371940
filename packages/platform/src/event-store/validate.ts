import { AppError } from '../errors';
import type { ExpectedVersion, NewEvent } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STREAM = /^[a-z][a-z0-9_]*-[A-Za-z0-9_.:@-]{1,200}$/;

/** Rejects a malformed append before it reaches the database, with a typed error. */
export function validateAppend(streamId: string, events: NewEvent[], expected: ExpectedVersion): void {
  const bad = (field: string, message: string) =>
    new AppError('validation', `${field} ${message}`, { field, errors: [{ field, message }] });
  if (typeof streamId !== 'string' || !STREAM.test(streamId)) throw bad('streamId', 'must look like <category>-<id>');
  if (!Array.isArray(events) || events.length === 0) throw bad('events', 'must be a non-empty array');
  if (
    typeof expected === 'number' ? !Number.isInteger(expected) || expected < -1 : !['no_stream', 'any', 'stream_exists'].includes(expected)
  )
    throw bad('expectedVersion', 'must be an integer >= -1, no_stream, any or stream_exists');
  const ids = new Set<string>();
  events.forEach((e, i) => {
    if (!e || typeof e !== 'object') throw bad(`events[${i}]`, 'must be an object');
    if (typeof e.eventId !== 'string' || !UUID.test(e.eventId)) throw bad(`events[${i}].eventId`, 'must be a UUID');
    if (ids.has(e.eventId)) throw bad(`events[${i}].eventId`, 'is repeated in the batch');
    ids.add(e.eventId);
    if (typeof e.type !== 'string' || !/^[A-Z][A-Za-z0-9]{0,80}$/.test(e.type)) throw bad(`events[${i}].type`, 'must be a PascalCase name');
    if (e.data === undefined || e.data === null || typeof e.data !== 'object') throw bad(`events[${i}].data`, 'must be a JSON object');
    const m = e.metadata;
    if (
      !m ||
      typeof m.actorId !== 'string' ||
      typeof m.actorRole !== 'string' ||
      typeof m.correlationId !== 'string' ||
      typeof m.at !== 'string'
    )
      throw bad(`events[${i}].metadata`, 'must name actorId, actorRole, correlationId and at');
    if (e.schemaVersion !== undefined && (!Number.isInteger(e.schemaVersion) || e.schemaVersion < 1))
      throw bad(`events[${i}].schemaVersion`, 'must be a positive integer');
  });
}
