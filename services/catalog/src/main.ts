import { runServiceMain } from '@tv-shop/platform';
import { startCatalog } from './module';

// Catalog in its own process: DATABASE_URL, PORT (4002), COMMAND_TOKEN (unset: generated once into DATA_DIR/command-token, which the gateway reads too). The gateway reaches it with CATALOG_URL.
await runServiceMain('catalog', 4002, (deps) => startCatalog(deps));
