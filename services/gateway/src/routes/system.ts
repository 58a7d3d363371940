import { Router } from 'express';
import type { Health, PublicConfig } from '@tv-shop/contracts';
import { checkHealth, createLogger, STALL_MS, withTransportHealth } from '@tv-shop/platform';
import type { GatewayDeps } from '../deps';

const log = createLogger('gateway');

/** A projection or policy behind the head whose checkpoint has not moved for this long is stalled. */
export { STALL_MS };

export function systemRoutes({ pool, databaseMode, config, payments, lifecycle, transport }: GatewayDeps): Router {
  const r = Router();

  /**
   * 200 while all is well; 503 with a short `reason` while the database cannot be reached, a
   * projection or policy is stalled, or this process's Kafka consumer of replies has crashed for
   * good. All but the last comes from the database, so every gateway answers the same whether or
   * not it hosts the projector, and a stalled process elsewhere (a projector or service of its
   * own) shows up here too; the last is this process's own (with COMMAND_BUS=kafka). Only the admin is told the detail
   * (database mode, head, each projection's position): to anyone else it maps the system, and
   * the internal metrics listener's /health gives it to operators.
   */
  r.get('/health', async (req, res) => {
    const report = withTransportHealth(await checkHealth(pool, { databaseMode, log }), transport?.());
    const ok = report.status === 'ok';
    const body: Health =
      req.user?.role === 'Admin'
        ? {
            status: report.status,
            ...(ok ? {} : { reason: report.reason ?? 'degraded' }),
            database: report.database,
            head: report.head,
            projections: report.projections,
          }
        : { status: report.status, ...(ok ? {} : { reason: report.summary ?? 'degraded' }) };
    if (!ok) res.set('Retry-After', '2');
    res.set('Cache-Control', 'no-store');
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
