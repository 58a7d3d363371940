import { migrate, runServiceMain, withServiceMetrics } from '@tv-shop/platform';
import { startOrders } from './module';
import { paymentProviderFromEnv } from './payments/from-env';
import { SandboxPaymentProvider } from './payments/sandbox';

// Orders in its own process: DATABASE_URL, PORT (4003), COMMAND_TOKEN, CATALOG_URL (it asks catalog to
// record each sale), STRIPE_* (else the sandbox).
// The gateway reaches it with ORDERS_URL. METRICS_PORT (9467; 0: off) and METRICS_HOST (127.0.0.1):
// its /metrics and detailed /health.
await runServiceMain(
  'orders',
  4003,
  withServiceMetrics('orders', async (deps) => {
    await migrate(deps.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
    return startOrders({ ...deps, payments: paymentProviderFromEnv(deps.pool, process.env) });
  }),
);
