import { Router } from 'express';
import type { Health, PublicConfig } from '@tv-shop/contracts';
import type { GatewayDeps } from '../deps';

export function systemRoutes({ pool, databaseMode, store, reads, config, payments }: GatewayDeps): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    let ok = true;
    let head = 0;
    let projections: Health['projections'] = [];
    try {
      await pool.query('select 1');
      head = await store.headPosition();
      // From the database, so every gateway reports the same whether or not it hosts the projector.
      const positions = await reads.projectionPositions();
      projections = Object.entries(positions).map(([name, position]) => ({ name, position, lag: Math.max(0, head - position) }));
    } catch {
      ok = false;
    }
    const body: Health = { status: ok ? 'ok' : 'degraded', database: { ok, mode: databaseMode }, head, projections };
    res.status(ok ? 200 : 503).json(body);
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
