import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { WriteAnswer } from '@tv-shop/contracts';
import { AppError, createLogger, uuidFromName, type CommandBus, type CommandEnvelope, type CommandReply } from '@tv-shop/platform';
import type { PositionTracker } from './positions';

const log = createLogger('gateway');

/**
 * Turns an HTTP write into a command. The command id comes from the Idempotency-Key header
 * (scoped to the caller and route) so a retried request lands once; the answer waits until the
 * read models reached the command's position.
 */
export class CommandSender {
  constructor(
    private readonly bus: CommandBus,
    private readonly positions: PositionTracker,
  ) {}

  commandId(req: Request, scope = ''): string {
    const key = req.get('Idempotency-Key');
    if (key === undefined) return randomUUID();
    if (!/^[\x21-\x7e]{1,200}$/.test(key))
      throw new AppError('validation', 'Idempotency-Key must be 1-200 visible characters', { field: 'Idempotency-Key' });
    return uuidFromName(`${req.user?._id ?? 'anonymous'}:${req.method}:${req.baseUrl}${req.path}:${scope}:${key}`);
  }

  async send(
    req: Request,
    cmd: Pick<CommandEnvelope, 'service' | 'type' | 'data' | 'aggregateId'> & { commandId?: string },
  ): Promise<CommandReply> {
    const commandId = cmd.commandId ?? this.commandId(req);
    const reply = await this.bus.send({
      ...cmd,
      commandId,
      actor: { id: req.user?._id ?? 'anonymous', role: req.user?.role ?? 'Visitor' },
      correlationId: req.get('X-Correlation-Id')?.slice(0, 100) ?? commandId,
    });
    if (!(await this.positions.waitFor(reply.position)))
      log.warn('read models did not reach the write in time', { position: reply.position });
    return reply;
  }

  /** The spec's write answer. */
  static answer(reply: CommandReply, insertedId?: string): WriteAnswer {
    return {
      acknowledged: true,
      position: reply.position,
      modifiedCount: reply.result.changed === false ? 0 : 1,
      ...(insertedId ? { insertedId } : {}),
    };
  }
}
