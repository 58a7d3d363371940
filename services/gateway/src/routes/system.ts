import { Router } from 'express';
import type { Health, PublicConfig } from '@tv-shop/contracts';
import type { GatewayDeps } from '../deps';

export function systemRoutes({ pool, databaseMode, store, projector, config, payments }: GatewayDeps): Router {
  const r = Router();
  r.get('/health', async (_req, res) => {
    let ok = true;
    let head = 0;
    let projections: Health['projections'] = [];
    try {
      await pool.query('select 1');
      head = await store.headPosition();
      projections = (await projector.status()).map(({ name, position, lag }) => ({ name, position, lag }));
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
