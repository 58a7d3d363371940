import { z } from 'zod';
import { CONDITIONS, ROLES } from './entities';
import { SandboxConfirmBody } from './api';

/**
 * The commands each service takes over the command bus, as their senders (the gateway, the
 * bootstrap, another service) send them: one zod schema per command's `data`, so a service can
 * check what arrives over a transport before it decides anything. A command type a service does
 * not know, or data of the wrong shape, is a 400 naming the field (`type`, `data.<path>`).
 */
const id = z.string();
const by = z.object({ actorId: id });

export const IdentityCommandData = {
  RegisterUser: z.object({
    userId: id,
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    photoURL: z.string(),
    passwordHash: z.string().nullable(),
    via: z.enum(['password', 'google', 'bootstrap']),
  }),
  /**
   * The caller's own name and photo. `email` and `role` carry what the caller asked for, if
   * anything: the decider refuses a change of either (an email never changes; a role is chosen once).
   */
  UpdateProfile: z.object({
    name: z.string().optional(),
    photoURL: z.string().optional(),
    email: z.string().optional(),
    role: z.string().optional(),
  }),
  // `replaces`: the hash the sender checked the current password against; refused (409) when another change came first.
  ChangePassword: z.object({ passwordHash: z.string(), replaces: z.string().optional() }),
  /** The account's holder signs out everywhere: every session's token and socket stops working, the sender's too (ADR 0062). */
  EndSessions: z.object({}),
  /** The holder signs out of one session, the sign-in a token comes from (Log Out, ADR 0066). */
  SignOut: z.object({ sessionId: z.string().min(1).max(100) }),
  VerifySeller: z.object({}),
  /** `requestedBy`: the admin asking, who may not delete their own account. */
  DeleteUser: z.object({ requestedBy: id }),
  /**
   * Someone signs in with Google: who a Google ID token says they are, once the edge verified the
   * token. Identity answers the account it opens (`userId`), registering a Buyer the first time,
   * or refuses (a password account with that email, a deleted one; ADR 0021).
   */
  SignInWithGoogle: z.object({ email: z.string(), name: z.string(), picture: z.string() }),
};

/** A listing as the seller's route sends it; catalog fills `categoryName` from the category's stream. */
export const ProductListingData = z.object({
  productId: id,
  name: z.string(),
  imageUrl: z.string(),
  /** Every photo in order, `imageUrl` first; the decider refuses more than MAX_LISTING_PHOTOS. */
  imageUrls: z.array(z.string()).optional(),
  /** A thumbnail for each of `imageUrls`, in the same order. */
  thumbnailUrls: z.array(z.string()).optional(),
  details: z.string(),
  location: z.string(),
  resalePricePoisha: z.number(),
  originalPricePoisha: z.number(),
  useDuration: z.string(),
  condition: z.enum(CONDITIONS),
  phone: z.string(),
  categoryId: id,
  categoryName: z.string(),
  sellerId: id,
  sellerName: z.string(),
  sellerEmail: z.string(),
  postedOn: z.string(),
});

export const CatalogCommandData = {
  ListProduct: ProductListingData,
  /**
   * The seller's listing as they now want it (every field they may change, ADR 0057); catalog
   * fills `categoryName` from the category's stream, and the decider records what differs.
   */
  EditListing: by.extend({
    listing: ProductListingData.omit({ productId: true, sellerId: true, sellerName: true, sellerEmail: true, postedOn: true }),
    /** How many edits the listing had when the seller's form was filled: one made since refuses this (ADR 0061). */
    seenEdits: z.number().int().min(0).optional(),
  }),
  MarkProductSold: by,
  MarkProductAvailable: by,
  AdvertiseProduct: by,
  RemoveAdvertising: by,
  ReportProduct: by.extend({ actorName: z.string(), reason: z.string() }),
  /**
   * The admin keeps a reported TV: its reports are dismissed. `seen`: how many reports the admin
   * was shown; when more have come since, the dismissal is refused so that none goes unseen.
   */
  DismissReports: z.object({
    seen: z.number().int().min(0).optional(),
    /** Every report the listing ever had as the admin was shown it (`reports_taken`): the stricter form of `seen`. */
    seenTaken: z.number().int().min(0).optional(),
  }),
  /**
   * Who asks: an admin (`admin`), the product's own seller taking it off sale (`withdrawn`, with
   * who asks: the decider checks it is the seller), or catalog's own policy after the seller's
   * account was deleted (`seller-deleted`). Whether an admin's removal is for reports is the
   * product's to say: the decider emits `ProductRemoved { reason: 'reported' }` when its stream
   * holds a report.
   */
  RemoveProduct: z.discriminatedUnion('reason', [
    z.object({
      reason: z.literal('admin'),
      /**
       * What the admin was shown as they chose to remove it (the web app's Reported Items sends
       * both; the spec's client neither): `seenReported`, that it was reported (refused when its
       * reports were dismissed meanwhile); `seenPaid`, whether a buyer had paid (refused when
       * one paid since: the question they answered said otherwise).
       */
      seenReported: z.boolean().optional(),
      seenPaid: z.boolean().optional(),
    }),
    z.object({ reason: z.literal('seller-deleted') }),
    by.extend({ reason: z.literal('withdrawn') }),
  ]),
  /** Sent by orders before it records a payment: the product's own stream decides who bought it (ADR 0006). */
  /**
   * `listingTerms` (else, in bookings placed before it was kept, `listingEdits`): the booking's
   * terms (BookingPlaced); a listing whose terms changed since is not sold on the old ones.
   */
  RecordSale: z.object({
    bookingId: id,
    buyerName: z.string(),
    listingEdits: z.number().int().min(0).optional(),
    listingTerms: z.number().int().min(0).optional(),
  }),
};

/**
 * What the gateway asks of orders. These are not the booking decider's own commands: orders
 * reads the product's facts and the payment provider's word before it decides.
 */
export const OrdersCommandData = {
  PlaceBooking: z.object({
    productId: id,
    phone: z.string(),
    meetingLocation: z.string(),
    buyer: z.object({ id, name: z.string(), email: z.string() }),
    /** The listing's edit count as the buyer saw it: the booking is refused if it was edited since. */
    listingEdits: z.number().int().min(0).optional(),
  }),
  CreatePaymentIntent: z.object({ buyerId: id }),
  /** The buyer calls off their own booking before paying for it (ADR 0058). */
  CancelBooking: z.object({ buyerId: id }),
  /** `buyerId` null: Stripe's webhook, which pays for whoever booked. */
  PayBooking: z.object({ buyerId: id.nullable(), paymentIntentId: z.string() }),
  /**
   * The built-in card sandbox (no Stripe configured) confirms a card for an intent, as Stripe's
   * servers do for Stripe.js. Whoever holds the intent's client secret may confirm it.
   */
  ConfirmSandboxCard: SandboxConfirmBody.pick({ clientSecret: true, card: true }),
};

export const CommandData = { identity: IdentityCommandData, catalog: CatalogCommandData, orders: OrdersCommandData };

type CommandsOf<M extends Record<string, z.ZodType>> = { [K in keyof M & string]: { type: K; data: z.output<M[K]> } }[keyof M & string];

export type IdentityCommand = CommandsOf<typeof IdentityCommandData>;
export type CatalogCommand = CommandsOf<typeof CatalogCommandData>;
export type OrdersCommand = CommandsOf<typeof OrdersCommandData>;

/** The services that take commands, and each one's commands. */
export interface ServiceCommands {
  identity: IdentityCommand;
  catalog: CatalogCommand;
  orders: OrdersCommand;
}
export type CommandService = keyof ServiceCommands;
export type CommandOf<S extends CommandService, T extends ServiceCommands[S]['type']> = Extract<ServiceCommands[S], { type: T }>;
/** A command addressed to its service, as a sender puts it on the bus. */
export type AddressedCommand = { [S in CommandService]: { service: S } & ServiceCommands[S] }[CommandService];

export type ReadCommand<S extends CommandService> =
  { ok: true; command: ServiceCommands[S] } | { ok: false; field: string; message: string };

/**
 * Checks a command that arrived for `service`: its type must be one of the service's and its
 * data must match that command's schema (unknown keys are dropped). Answers the command or the
 * field at fault; the service turns the latter into a 400.
 */
export function readCommand<S extends CommandService>(service: S, raw: { type: unknown; data: unknown }): ReadCommand<S> {
  const schemas: Record<string, z.ZodType> = CommandData[service];
  const type = raw.type;
  if (typeof type !== 'string' || !Object.hasOwn(schemas, type))
    return { ok: false, field: 'type', message: `is not a ${service} command` };
  const parsed = schemas[type]!.safeParse(raw.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, field: ['data', ...issue.path.map(String)].join('.'), message: issue.message };
  }
  return { ok: true, command: { type, data: parsed.data } as ServiceCommands[S] };
}

/** `readCommand` that throws `invalid(field, message)` (the service's 400) when the command is not one of `service`'s. */
export function parseCommand<S extends CommandService>(
  service: S,
  raw: { type: unknown; data: unknown },
  invalid: (field: string, message: string) => Error,
): ServiceCommands[S] {
  const read = readCommand(service, raw);
  if (!read.ok) throw invalid(read.field, read.message);
  return read.command;
}

/**
 * The policies whose reactions belong to a command, so the write's answer waits for them too:
 * deleting a user removes their listings (catalog's policy) and cancels their open bookings
 * (orders' policy). Named by policy, as each service starts it.
 */
export const REACTIONS_OF = {
  DeleteUser: ['catalog', 'orders'],
} as const satisfies Partial<Record<string, readonly CommandService[]>>;

/**
 * What a command's reply carries besides its log position, per command: the service returns
 * it and the gateway reads it with these types on both sides. A command not listed answers only
 * whether it changed anything (`changed: false` for a repeat that found the work done).
 */
export interface CommandResults {
  CreatePaymentIntent: Omit<import('./api').PaymentIntentAnswer, 'publishableKey'>;
  ConfirmSandboxCard: import('./api').SandboxConfirmAnswer;
  /** The account the Google identity signs in to. */
  SignInWithGoogle: { userId: string };
}
export type ResultOf<T extends string> = T extends keyof CommandResults ? CommandResults[T] : { changed?: boolean };
