import { runServiceMain } from '@tv-shop/platform';
import { startIdentity } from './module';

// Identity in its own process: DATABASE_URL, PORT (4001), COMMAND_TOKEN (unset: generated once into DATA_DIR/command-token, which the gateway reads too). The gateway reaches it with IDENTITY_URL.
await runServiceMain('identity', 4001, async ({ store, bus }) => startIdentity({ store, bus }));
