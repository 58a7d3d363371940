import { bookedOnOtherTerms, changesTerms, streams, type EventOf } from '@tv-shop/contracts';
import {
  createLogger,
  startPolicy,
  SYSTEM_ACTOR,
  uuidFromName,
  waitForCheckpoint,
  type LogSource,
  type EventStore,
  type RecordedEvent,
} from '@tv-shop/platform';
import type pg from 'pg';
import { loadProductFacts, soldReason } from '../booking/product-facts';
import type { Bookings } from '../booking/stream';
import { ORDERS_PROJECTION, OrdersQueries } from '../read-model';

type CancelReason = EventOf<'BookingCancelled'>['data']['reason'];

interface PolicyDeps {
  store: EventStore;
  pool: pg.Pool;
  events?: LogSource | undefined;
  bookings: Bookings;
}

/** What the policy does to bookings, each for the event that caused it (ADR 0010). */
function cancellations({ store, pool, bookings }: PolicyDeps) {
  const queries = new OrdersQueries(pool);
  const cause = (e: RecordedEvent, key: string) => ({
    commandId: uuidFromName(`orders-policy:${e.eventId}:${key}`),
    actor: SYSTEM_ACTOR,
    correlationId: e.metadata.correlationId,
    causationId: e.eventId,
  });
  const cancel = (e: RecordedEvent, bookingId: string, reason: CancelReason, placement?: number) =>
    bookings.run(bookingId, { type: 'CancelBooking', data: { reason, ...(placement ? { placement } : {}) } }, cause(e, bookingId));
  /** How many times the booking was placed up to (`<=`) or before (`<`) event `e`: the placing a reaction means. */
  const placementAt = async (e: RecordedEvent, bookingId: string, upTo: 'before' | 'including') =>
    (await store.readStream(streams.booking(bookingId))).filter(
      (b) => b.type === 'BookingPlaced' && (upTo === 'including' ? b.position <= e.position : b.position < e.position),
    ).length;
  /**
   * Whether the account was closed before event `e`: identity's stream for it says so (the log, not
   * a read model that may lag). A deletion after it is `UserDeleted`'s to react to, read again or not.
   */
  const closedBefore = async (e: RecordedEvent, userId: string) =>
    (await store.readStream(streams.user(userId))).some((x) => x.type === 'UserDeleted' && x.position < e.position);
  /**
   * Whether the product's stream, as it is now, sold the TV to this booking (its payment is in
   * flight, or done): then no late reaction cancels it, whatever it reacts to.
   */
  const boughtBy = async (productId: string, bookingId: string) => (await loadProductFacts(store, productId)).soldTo === bookingId;
  /** Whether the booking's placing before event `e` is from before terms were counted: its sale counts every edit. */
  const countsEveryEdit = async (e: RecordedEvent, bookingId: string) => {
    const placed = (await store.readStream(streams.booking(bookingId))).filter(
      (b) => b.type === 'BookingPlaced' && b.position < e.position,
    );
    return (placed.at(-1)?.data as EventOf<'BookingPlaced'>['data'] | undefined)?.listingTerms === undefined;
  };
  return {
    cancel,
    boughtBy,
    placementAt,
    closedBefore,
    countsEveryEdit,
    /**
     * Cancels the placings of bookings that came before event `e` (a sale, a removal), never one
     * placed after it: a late reaction to an old sale must not undo a booking made since.
     */
    cancelPlacedBefore: async (e: RecordedEvent, productId: string, bookingId: string, reason: CancelReason) => {
      if (await boughtBy(productId, bookingId)) return;
      const placement = await placementAt(e, bookingId, 'before');
      if (placement > 0) await cancel(e, bookingId, reason, placement);
    },
    /** Unpaid bookings placed before the event at hand, from the read model once it has caught up with that event. */
    unpaidBookings: async (e: RecordedEvent, of: { productId: string } | { buyerId: string }) => {
      await waitForCheckpoint(pool, ORDERS_PROJECTION, e.position);
      return queries.unpaidBookingsPlacedBefore(of, e.position);
    },
  };
}

/**
 * Orders' policy: cancels the bookings that can no longer be paid (their product was sold,
 * removed or changed by its seller, their buyer deleted), acting on the state as of its event
 * (ADR 0010, 0057).
 */
export async function startCancellationPolicy(deps: PolicyDeps) {
  const { store, pool, events } = deps;
  const { cancel, boughtBy, placementAt, closedBefore, countsEveryEdit, cancelPlacedBefore, unpaidBookings } = cancellations(deps);
  return startPolicy({
    name: 'orders',
    pool,
    store,
    source: events,
    log: createLogger('orders'),
    handlers: {
      // A booking that lands just after its product was sold, removed or edited is cancelled at
      // once: edited, its terms (`listingTerms`) are not the listing's any more, and its sale
      // would be refused (ADR 0058), so the buyer chooses again before paying, not after.
      // So is one whose buyer's account was closed just before it landed (a request the gateway
      // let through a moment before it heard of the deletion), which `UserDeleted` could not see.
      // The product as it was when the booking landed (just before it in the log), not as it is
      // when this runs: a change after the placing is its own event's to react to, so the same log
      // gives the same cancellations, caused by the same events, however late the policy runs.
      BookingPlaced: async (e) => {
        const d = e.data as EventOf<'BookingPlaced'>['data'];
        const product = await loadProductFacts(store, d.productId, e.position);
        const reason = product.removed
          ? 'product-removed'
          : product.sold && product.soldTo !== d.bookingId
            ? soldReason(product.soldTo)
            : !product.sold && bookedOnOtherTerms(d, product)
              ? 'listing-edited'
              : (await closedBefore(e, d.buyerId))
                ? 'buyer-deleted'
                : null;
        if (!reason) return;
        // Bought since (made available again, then paid for, while this reaction waited).
        if (await boughtBy(d.productId, d.bookingId)) return;
        // This very placing, not one made again later in the same stream.
        await cancel(e, d.bookingId, reason, await placementAt(e, d.bookingId, 'including'));
      },
      ProductMarkedSold: async (e) => {
        const { productId, bookingId } = e.data as EventOf<'ProductMarkedSold'>['data'];
        for (const id of await unpaidBookings(e, { productId }))
          // Bought here by another booking, or marked sold by its seller (sold elsewhere): the buyer is told which.
          if (id !== bookingId) await cancelPlacedBefore(e, productId, id, soldReason(bookingId));
      },
      // The buyer booked the listing as it was: after the seller changes it (its price, its
      // condition, ...) they choose again, at what it says now (ADR 0057). Its photos only put in
      // another order, it is the same TV on the same terms (ADR 0073): only bookings placed before
      // terms were counted, whose sale counts every edit, are cancelled then.
      ProductEdited: async (e) => {
        const { productId, changes } = e.data as EventOf<'ProductEdited'>['data'];
        const newTerms = changesTerms((await loadProductFacts(store, productId, e.position)).photos, changes);
        for (const id of await unpaidBookings(e, { productId }))
          if (newTerms || (await countsEveryEdit(e, id))) await cancelPlacedBefore(e, productId, id, 'listing-edited');
      },
      ProductRemoved: async (e) => {
        const { productId } = e.data as EventOf<'ProductRemoved'>['data'];
        for (const id of await unpaidBookings(e, { productId })) await cancelPlacedBefore(e, productId, id, 'product-removed');
      },
      UserDeleted: async (e) => {
        const d = e.data as EventOf<'UserDeleted'>['data'];
        if (d.role !== 'Buyer') return;
        for (const id of await unpaidBookings(e, { buyerId: d.userId })) await cancel(e, id, 'buyer-deleted');
      },
    },
  });
}
