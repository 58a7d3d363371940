import express, { Router } from 'express';
import {
  CreatePaymentIntentBody,
  PlaceBookingBody,
  RecordPaymentBody,
  SandboxConfirmBody,
  type PaymentIntentAnswer,
} from '@tv-shop/contracts';
import { AppError, createLogger, isRefusal, notFound, SYSTEM_ACTOR, uuidFromName, type ErrorKind } from '@tv-shop/platform';
import { bookingIdFor } from '@tv-shop/orders';
import { selfOrAdmin, signedIn, withRole } from '../auth/middleware';
import { CommandSender } from '../commands';
import type { GatewayDeps } from '../deps';
import { idParam, parse, queryParam } from '../http/validate';

const log = createLogger('gateway');

export function orderRoutes({ reads, sender, payments }: GatewayDeps): Router {
  const r = Router();

  // Price, product data, name and email come from the server's own records, never the form.
  r.post('/bookings', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    const body = parse(PlaceBookingBody, req.body);
    const bookingId = bookingIdFor(body.product_id, buyer._id);
    const reply = await sender.send(req, {
      service: 'orders',
      type: 'PlaceBooking',
      aggregateId: bookingId,
      data: {
        productId: body.product_id,
        phone: body.phone_number,
        meetingLocation: body.meeting_location,
        buyer: { id: buyer._id, name: buyer.name, email: buyer.email },
        ...(body.edits === undefined ? {} : { listingEdits: body.edits }),
      },
    });
    res.status(201).json(CommandSender.answer(reply, bookingId));
  });

  r.get('/bookings', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    selfOrAdmin(req, email);
    res.json(await reads.orders.bookingsOf(email));
  });

  // A seller sees who booked their TVs (name, phone, meeting place); the admin sees any seller's.
  r.get('/seller_bookings', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const user = selfOrAdmin(req, email);
    if (user.role !== 'Admin') withRole(req, 'Seller');
    const seller = user.role === 'Admin' ? await reads.identity.userByEmail(email) : user;
    if (!seller || seller.role !== 'Seller') throw notFound('Seller', 'email');
    res.json(await reads.orders.bookingsOfSeller(seller._id));
  });

  r.get('/bookings/:id', async (req, res) => {
    const user = signedIn(req);
    const booking = await reads.orders.booking(idParam(req.params.id, 'Booking'));
    // Someone else's booking is answered exactly like a missing one.
    if (!booking || (user.role !== 'Admin' && booking.buyerId !== user._id)) throw notFound('Booking');
    const { buyerId: _hidden, ...rest } = booking;
    res.json(rest);
  });

  // The buyer calls off their own unpaid booking (ADR 0058); it stays in My Orders, cancelled.
  // Another buyer's booking is answered as a missing one.
  r.post('/bookings/:id/cancel', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    const reply = await sender.send(req, {
      service: 'orders',
      type: 'CancelBooking',
      aggregateId: idParam(req.params.id, 'Booking'),
      data: { buyerId: buyer._id },
    });
    res.json(CommandSender.answer(reply));
  });

  r.post('/create-payment-intent', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    const body = parse(CreatePaymentIntentBody, req.body);
    // The spec's client may pay with `{ price }` alone; orders says which booking that means, if any.
    const bookingId = body.bookingId ?? (await reads.bookingToPayAt(buyer._id, body.price));
    const reply = await sender.send(req, {
      service: 'orders',
      type: 'CreatePaymentIntent',
      aggregateId: idParam(bookingId, 'Booking', body.bookingId === undefined ? 'price' : 'bookingId'),
      data: { buyerId: buyer._id },
    });
    const answer: PaymentIntentAnswer = {
      ...reply.result,
      ...(payments.publishableKey ? { publishableKey: payments.publishableKey } : {}),
    };
    res.json(answer);
  });

  // Counts only what the provider confirms for this booking and amount, and only once.
  r.post('/payments', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    const body = parse(RecordPaymentBody, req.body);
    const reply = await sender.send(req, {
      service: 'orders',
      type: 'PayBooking',
      aggregateId: idParam(body.bookingId, 'Booking', 'bookingId'),
      commandId: uuidFromName(`payment:${body.bookingId}:${body.transationId}`),
      data: { buyerId: buyer._id, paymentIntentId: body.transationId },
    });
    res.json(CommandSender.answer(reply));
  });

  // Stands in for Stripe's servers when no Stripe key is set; orders owns the sandbox.
  r.post('/payment-sandbox/confirm', async (req, res) => {
    const { clientSecret, card } = parse(SandboxConfirmBody, req.body);
    const reply = await sender.send(req, {
      service: 'orders',
      type: 'ConfirmSandboxCard',
      aggregateId: 'payment-sandbox',
      data: { clientSecret, card },
    });
    res.json(reply.result);
  });
  return r;
}

/** What the booking's own decision says of a payment it will never take: the same event later gets the same answer. */
const FINAL_FOR_STRIPE: ReadonlySet<ErrorKind> = new Set(['illegal_state', 'not_found', 'gone', 'conflict', 'validation']);

/**
 * Whether the shop's answer to a Stripe webhook is final. The booking's refusal (already paid,
 * cancelled, the product gone and the payment refunded) is: Stripe is told it arrived. Anything
 * else answers an error so that Stripe delivers the event again (ADR 0059): a booking too busy to
 * take it now (409 concurrency, 429), a fault, and Stripe refusing the refund this payment is owed
 * (422, the money not given back yet: each delivery tries the refund again, and logs it).
 */
export function stripeMayStopSending(err: unknown): err is AppError {
  return isRefusal(err) && FINAL_FOR_STRIPE.has(err.kind);
}

/** Stripe's webhook needs the raw body for its signature, so it is mounted before express.json. */
export function stripeWebhook({ payments, sender }: GatewayDeps): Router {
  const r = Router();
  r.post('/stripe/webhook', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    if (!payments.webhookIntent) throw notFound('Stripe webhook (Stripe is not configured)');
    let intent;
    try {
      intent = payments.webhookIntent(req.body as Buffer, req.get('Stripe-Signature') ?? '');
    } catch {
      throw new AppError('validation', 'The Stripe signature does not match', { field: 'Stripe-Signature' });
    }
    if (intent?.bookingId) {
      // Same command id as the browser's POST /payments for this intent: whichever comes first counts.
      await sender
        .send(
          req,
          {
            service: 'orders',
            type: 'PayBooking',
            aggregateId: intent.bookingId,
            commandId: uuidFromName(`payment:${intent.bookingId}:${intent.id}`),
            data: { buyerId: null, paymentIntentId: intent.id },
          },
          // Stripe's signature vouches for it: the shop records the payment, for whoever booked.
          { as: SYSTEM_ACTOR },
        )
        .catch((err: unknown) => {
          if (!stripeMayStopSending(err)) throw err;
          log.info('stripe webhook refused', { intent: intent.id, reason: err.message });
        });
    }
    res.json({ received: true });
  });
  return r;
}
