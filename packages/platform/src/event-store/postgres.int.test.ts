import { createTestDatabase } from '../testing';
import { eventStoreContract } from '../testing/event-store-contract';
import { PostgresEventStore } from './postgres';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase('es');
  await PostgresEventStore.migrate(db.pool);
  return { store: new PostgresEventStore(db.pool, { pollIntervalMs: 5000 }), dispose: db.drop };
});
