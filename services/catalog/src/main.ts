import { runServiceMain, withServiceMetrics } from '@tv-shop/platform';
import { startCatalog } from './module';
import { listingLimitsFromEnv } from './seller-listings/limits';

// Catalog in its own process: DATABASE_URL, PORT (4002), COMMAND_TOKEN (unset: generated once into DATA_DIR/command-token, which the gateway reads too). The gateway reaches it with CATALOG_URL.
// LISTING_LIMIT_ACTIVE and LISTING_LIMIT_PER_HOUR: a bad value stops the start naming the variable.
// METRICS_PORT (9466; 0: off) and METRICS_HOST (127.0.0.1): its /metrics and detailed /health.
await runServiceMain(
  'catalog',
  4002,
  withServiceMetrics('catalog', (deps) => startCatalog({ ...deps, limits: listingLimitsFromEnv(process.env) })),
);
