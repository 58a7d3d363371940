import { AppError, createLogger, SYSTEM_ACTOR, uuidFromName, type CommandEnvelope, type CommandReply } from '@tv-shop/platform';
import type { SandboxPaymentProvider } from './sandbox';

const log = createLogger('orders');

export interface SandboxWebhookOptions {
  sandbox: SandboxPaymentProvider;
  /** Orders' own command handler: the report arrives as Stripe's signed webhook does, as the shop's word. */
  handle: (env: CommandEnvelope) => Promise<CommandReply>;
  /** How often it looks for reports that are due. */
  everyMs?: number;
  /** Payments claimed per look. */
  batch?: number;
}

/**
 * The sandbox's webhook (ADR 0059). Stripe tells the shop of every succeeded payment, whether or
 * not the buyer's browser lived to report it; the sandbox does the same. A payment whose card
 * went through is reported as `PayBooking` for whoever booked, with the command id of the
 * browser's own report, so whichever arrives first counts and the other changes nothing.
 *
 * A report ends only when the money is settled: the shop took the payment, or the payment was
 * given back (the workflow refunds what it cannot keep before it refuses). Anything else (a
 * fault, a booking too busy to take it now, a refusal that left the money where it was) is tried
 * again later, with a growing pause, until the shop hears it.
 */
export function startSandboxWebhook({ sandbox, handle, everyMs = 1000, batch = 20 }: SandboxWebhookOptions) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failing = false;

  const deliver = async ({ intentId, bookingId, attempts }: { intentId: string; bookingId: string; attempts: number }) => {
    const commandId = uuidFromName(`payment:${bookingId}:${intentId}`);
    try {
      await handle({
        service: 'orders',
        type: 'PayBooking',
        aggregateId: bookingId,
        commandId,
        actor: SYSTEM_ACTOR,
        correlationId: commandId,
        data: { buyerId: null, paymentIntentId: intentId },
      });
    } catch (err) {
      // Refused: final only if the money went back to the card (already paid by another card, the
      // booking cancelled or placed again); otherwise the refusal may pass (a busy booking's 409).
      if (err instanceof AppError && err.status < 500 && (await sandbox.refundedAt(intentId))) {
        log.info('sandbox webhook: the shop refused a payment and refunded it', { intentId, bookingId, reason: err.message });
      } else {
        log.warn('sandbox webhook: the shop did not take a payment; it is reported again later', { intentId, bookingId, attempts, err });
        await sandbox.reportLater(intentId, attempts);
        return;
      }
    }
    await sandbox.reported(intentId, bookingId);
  };

  const tick = async () => {
    try {
      for (;;) {
        const due = await sandbox.claimReports(batch);
        for (const report of due) {
          if (stopped) return;
          await deliver(report);
        }
        if (due.length < batch || stopped) break;
      }
      if (failing) log.info('sandbox webhook: delivering again');
      failing = false;
    } catch (err) {
      // The database is unreachable: nothing was lost (each claim only delays a report), so it waits.
      if (!failing) log.warn('sandbox webhook: cannot read the payments to report; trying again', err);
      failing = true;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();

  return {
    /** Delivers whatever is due now (for tests and the shutdown of a test shop). */
    flush: async () => {
      await running;
      running = tick();
      await running;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
