import { runServiceMain } from '@tv-shop/platform';
import { startCatalog } from './module';

// Catalog in its own process: DATABASE_URL, PORT (4002), COMMAND_TOKEN. The gateway reaches it with CATALOG_URL.
await runServiceMain('catalog', 4002, (deps) => startCatalog(deps));
