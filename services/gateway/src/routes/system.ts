import { Router } from 'express';
import type { Health, PublicConfig } from '@tv-shop/contracts';
import { checkpointHealth, createLogger, describeError } from '@tv-shop/platform';
import type { GatewayDeps } from '../deps';

const log = createLogger('gateway');

/** A projection or policy behind the head whose checkpoint has not moved for this long is stalled. */
export const STALL_MS = 5000;
/** The health check's own database round trip gives up after this long (a hung server is unreachable). */
const CHECK_TIMEOUT_MS = 2500;

export function systemRoutes({ pool, databaseMode, config, payments, lifecycle }: GatewayDeps): Router {
  const r = Router();

  /**
   * 200 while all is well; 503 with a short `reason` while the database cannot be reached or a
   * projection or policy is stalled. Everything comes from the database, so every gateway
   * answers the same whether or not it hosts the projector, and a stalled process elsewhere
   * (a projector or service of its own) shows up here too.
   */
  r.get('/health', async (_req, res) => {
    let head = 0;
    let projections: Health['projections'] = [];
    const reasons: string[] = [];
    let databaseOk = true;
    try {
      const rows = await withTimeout(checkpointHealth(pool), CHECK_TIMEOUT_MS);
      head = Number(rows[0]?.head ?? 0);
      for (const row of rows) {
        if (row.kind === null || row.name === null) continue;
        const position = Number(row.position);
        if (row.kind === 'projection') projections.push({ name: row.name, position, lag: Math.max(0, head - position) });
        if (position < head && (row.waiting_ms ?? 0) > STALL_MS && row.idle_ms > STALL_MS) {
          reasons.push(
            `${row.kind} ${row.name} stalled at ${position} of ${head} for ${Math.round(Math.min(row.waiting_ms ?? 0, row.idle_ms) / 1000)} s`,
          );
        }
      }
    } catch (err) {
      databaseOk = false;
      projections = [];
      // The cause (an address, a code) goes to the log, not to whoever asks.
      log.warn('health: the database did not answer', { error: describeError(err) });
      reasons.unshift('database unreachable');
    }
    const ok = reasons.length === 0;
    const body: Health & { reason?: string } = {
      status: ok ? 'ok' : 'degraded',
      database: { ok: databaseOk, mode: databaseMode },
      head,
      projections,
      ...(ok ? {} : { reason: reasons.join('; ') }),
    };
    if (!ok) res.set('Retry-After', '2');
    res.status(ok ? 200 : 503).json(body);
  });

  /**
   * For a load balancer: 200 once this process has started and until it begins to shut down;
   * 503 before and after. It does not look at the database (every instance shares it, so taking
   * one out of rotation would not help); /health says whether the whole is well.
   */
  r.get('/ready', (_req, res) => {
    const state = lifecycle?.() ?? 'ready';
    res.status(state === 'ready' ? 200 : 503).json({ ready: state === 'ready', state });
  });

  r.get('/config', (_req, res) => {
    const body: PublicConfig = {
      stripePublishableKey: payments.name === 'stripe' ? payments.publishableKey : null,
      googleClientId: config.google?.clientId ?? null,
    };
    res.json(body);
  });
  return r;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  p.catch(() => {}); // answered late, after the timeout: nobody is waiting any more
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
