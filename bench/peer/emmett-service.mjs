// The peer of `npm run bench:peer`: a small resale-listing service written the way Emmett's
// published packages are meant to be used (Express 4 through @event-driven-io/emmett-expressjs,
// the PostgreSQL event store of @event-driven-io/emmett-postgresql, a command handler that reads
// the stream, decides and appends with the version it read, and an inline Pongo projection so an
// answer means the read model has the write, as TV Shop's does). It mirrors TV Shop's two writes:
//   POST /listings                    a seller lists a TV: a new stream (201 with its id)
//   PUT  /listings/:id/sold|unsold    the seller toggles it: one event appended to that stream
// The seller is named by the X-Seller header (no sign-in: the peer does no token check).
// Plain JavaScript on purpose: it resolves its packages from bench/peer/node_modules, which only
// `npm run bench:peer` installs, so lint and typecheck of the workspace never depend on them.
//   node bench/peer/emmett-service.mjs   (DATABASE_URL, PORT; prints {"url": ...} once listening)
import 'express-async-errors';
import { randomUUID } from 'node:crypto';
import console from 'node:console';
import process from 'node:process';
import { CommandHandler, projections } from '@event-driven-io/emmett';
import { Conflict, Created, Forbidden, NoContent, NotFound, BadRequest, getApplication, on } from '@event-driven-io/emmett-expressjs';
import { getPostgreSQLEventStore, pongoSingleStreamProjection } from '@event-driven-io/emmett-postgresql';

const connectionString = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/emmett_peer';

/** @typedef {{ status: 'none' } | { status: 'listed', sellerId: string, sold: boolean }} Listing */

/** @returns {Listing} */
const initialState = () => ({ status: 'none' });

/** @param {Listing} state @param {{ type: string, data: Record<string, unknown> }} event @returns {Listing} */
const evolve = (state, { type, data }) => {
  switch (type) {
    case 'ListingPosted':
      return { status: 'listed', sellerId: String(data.sellerId), sold: false };
    case 'ListingMarkedSold':
      return state.status === 'listed' ? { ...state, sold: true } : state;
    case 'ListingMarkedAvailable':
      return state.status === 'listed' ? { ...state, sold: false } : state;
    default:
      return state;
  }
};

/** A refusal the HTTP layer turns into a problem answer. */
class Refused extends Error {
  /** @param {number} errorCode @param {string} message */
  constructor(errorCode, message) {
    super(message);
    this.errorCode = errorCode;
  }
}

const handle = CommandHandler({ evolve, initialState, mapToStreamId: (id) => `listing-${id}` });

// The read model, written in the append's transaction: one document per listing.
const listingsView = pongoSingleStreamProjection({
  collectionName: 'listings',
  canHandle: ['ListingPosted', 'ListingMarkedSold', 'ListingMarkedAvailable'],
  evolve: (document, { type, data }) => {
    if (type === 'ListingPosted') return { ...data, sold: false };
    if (!document) return null;
    return { ...document, sold: type === 'ListingMarkedSold' };
  },
});

const eventStore = getPostgreSQLEventStore(connectionString, {
  projections: projections.inline([listingsView]),
  schema: { autoMigration: 'None' },
});
await eventStore.schema.migrate();

const text = (value, field, max = 200) => {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new Refused(400, `${field} is required`);
  return value.trim();
};
const price = (value, field) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Refused(400, `${field} must be a positive number`);
  return Math.round(n * 100);
};
const seller = (request) => text(request.get('x-seller'), 'X-Seller', 100);

const refusal = (err) => {
  if (!(err instanceof Refused)) throw err;
  const options = { problemDetails: err.message };
  if (err.errorCode === 400) return BadRequest(options);
  if (err.errorCode === 403) return Forbidden(options);
  if (err.errorCode === 404) return NotFound(options);
  return Conflict(options);
};

/** @param {boolean} sold */
const toggle = (sold) =>
  on(async (request) => {
    try {
      const sellerId = seller(request);
      await handle(eventStore, text(request.params.id, 'id', 100), (state) => {
        if (state.status === 'none') throw new Refused(404, 'No such listing');
        if (state.sellerId !== sellerId) throw new Refused(403, 'Not your listing');
        if (state.sold === sold) throw new Refused(409, sold ? 'Already sold' : 'Already available');
        return { type: sold ? 'ListingMarkedSold' : 'ListingMarkedAvailable', data: { listingId: request.params.id } };
      });
      return NoContent();
    } catch (err) {
      return refusal(err);
    }
  });

const listingsApi = (router) => {
  router.post(
    '/listings',
    on(async (request) => {
      try {
        const sellerId = seller(request);
        const body = request.body ?? {};
        const listingId = randomUUID();
        const listing = {
          listingId,
          sellerId,
          name: text(body.name, 'name'),
          details: text(body.details, 'details', 5000),
          location: text(body.location, 'location'),
          condition: text(body.condition, 'condition', 50),
          phone: text(body.phone, 'phone', 50),
          categoryId: text(body.categoryId, 'categoryId', 100),
          imageUrl: text(body.imageUrl, 'imageUrl', 2000),
          resalePricePoisha: price(body.resalePrice, 'resalePrice'),
          originalPricePoisha: price(body.originalPrice, 'originalPrice'),
          postedAt: new Date().toISOString(),
        };
        await handle(eventStore, listingId, (state) => {
          if (state.status !== 'none') throw new Refused(409, 'Already listed');
          return { type: 'ListingPosted', data: listing };
        });
        return Created({ createdId: listingId });
      } catch (err) {
        return refusal(err);
      }
    }),
  );
  router.put('/listings/:id/sold', toggle(true));
  router.put('/listings/:id/unsold', toggle(false));
};

const app = getApplication({ apis: [listingsApi] });
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  eventStore
    .close()
    .catch(() => {})
    .finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
