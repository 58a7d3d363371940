import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** An Express app on a free port of 127.0.0.1, for a unit test that talks to it with fetch. */
export async function listen(app: Express): Promise<{ base: string; close: () => void }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
