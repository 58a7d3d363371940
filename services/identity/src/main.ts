import { runServiceMain, withServiceMetrics } from '@tv-shop/platform';
import { startIdentity } from './module';

// Identity in its own process: DATABASE_URL, PORT (4001), COMMAND_TOKEN (unset: generated once into DATA_DIR/command-token, which the gateway reads too). The gateway reaches it with IDENTITY_URL.
// METRICS_PORT (9465; 0: off) and METRICS_HOST (127.0.0.1): its /metrics and detailed /health.
await runServiceMain(
  'identity',
  4001,
  withServiceMetrics('identity', async ({ store, bus }) => startIdentity({ store, bus })),
);
