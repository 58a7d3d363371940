import type { CommandBus, EventStore } from './index';
import { createLogger } from './log';

/**
 * A domain service started as its own process. That needs a command transport between
 * processes (Kafka); until its adapter lands, say so plainly instead of starting a service
 * that would never receive a command.
 */
export async function runServiceAlone(name: string, _start: (deps: { store: EventStore; bus: CommandBus }) => unknown): Promise<never> {
  const log = createLogger(name);
  log.error(
    `${name} cannot run as its own process yet: the Kafka command transport is not built (see docs/adr/0004-one-process-first.md). ` +
      'Run every service in one process with `npm start`.',
  );
  process.exit(2);
}
