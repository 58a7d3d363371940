import { runServiceAlone } from '@tv-shop/platform';
import { startIdentity } from './module';

// Run alone: needs DATABASE_URL and a remote command transport (Kafka), see docs/adr/0004.
await runServiceAlone('identity', (deps) => startIdentity(deps));
