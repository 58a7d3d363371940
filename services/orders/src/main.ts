import { runServiceAlone } from '@tv-shop/platform';

// Alone, this service needs a command transport between processes: see docs/adr/0004-one-process-first.md.
await runServiceAlone('orders', () => undefined);
