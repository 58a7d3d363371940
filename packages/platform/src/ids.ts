import { createHash, randomUUID } from 'node:crypto';

const NAMESPACE = Buffer.from('6f1d3c8e9a4b4e2f8c7d5a1b2c3d4e5f', 'hex');

/** RFC 4122 version-5 UUID: the same name always gives the same id. */
export function uuidFromName(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const newId = (): string => randomUUID();

/** The id of the i-th event a command produces: a retried command produces the same ids. */
export const eventIdFor = (commandId: string, index: number): string => uuidFromName(`event:${commandId}:${index}`);
