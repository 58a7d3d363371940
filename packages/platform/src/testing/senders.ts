import { expect } from 'vitest';
import { checkSender, type SenderRules } from '../commands/senders';
import type { Actor } from '../commands/handler';
import type { CommandEnvelope } from '../commands/transport';
import type { Service } from '../topology';

/**
 * For a service's sender rules: what the service answers `actor` sending `command` about
 * `aggregateId`: null if it may, else the 403's message.
 */
export const refusalUnder =
  <C extends { type: string; data: unknown }>(service: Service, rules: SenderRules<C>) =>
  (command: C, actor: Actor, aggregateId = 'aggregate-1'): string | null => {
    const env: CommandEnvelope = { service, ...command, aggregateId, commandId: 'c1', actor, correlationId: 'c1' };
    try {
      checkSender(rules, command, env);
      return null;
    } catch (err) {
      expect(err).toMatchObject({ kind: 'forbidden', status: 403 });
      return (err as Error).message;
    }
  };

/** Who the gateway names when no one is signed in. */
export const VISITOR: Actor = { id: 'anonymous', role: 'Visitor' };
