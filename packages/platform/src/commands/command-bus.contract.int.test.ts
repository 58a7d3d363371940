import { freePort } from '../db/embedded';
import { PostgresEventStore } from '../event-store/postgres';
import { commandBusContract } from '../testing/command-bus-contract';
import { createTestDatabase } from '../testing';
import { HttpCommandBus, serveCommands } from './http-transport';
import { InProcessCommandBus } from './transport';

const TOKEN = 'a-command-token-for-the-contract';

async function storeOnFreshDatabase() {
  const db = await createTestDatabase('cbus');
  await PostgresEventStore.migrate(db.pool);
  const store = new PostgresEventStore(db.pool);
  return {
    store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}

commandBusContract('in process', async () => {
  const { store, close } = await storeOnFreshDatabase();
  const bus = new InProcessCommandBus();
  return { client: bus, server: bus, served: 'identity', unconfigured: 'orders', remote: false, store, dispose: close };
});

commandBusContract('http', async () => {
  const { store, close } = await storeOnFreshDatabase();
  const server = new InProcessCommandBus();
  const endpoint = await serveCommands(server, { port: 0, token: TOKEN });
  // A port that was free a moment ago refuses connections: catalog is routed to, but nothing serves it.
  const client = new HttpCommandBus({ identity: endpoint.url, catalog: `http://127.0.0.1:${await freePort()}` }, TOKEN);
  return {
    client,
    server,
    served: 'identity',
    unconfigured: 'orders',
    absent: { service: 'catalog', within: 2000 },
    remote: true,
    store,
    async dispose() {
      await endpoint.close();
      await close();
    },
  };
});
