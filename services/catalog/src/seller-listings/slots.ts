import { randomUUID } from 'node:crypto';
import { streams, type CommandOf, type SellerListingsEvent } from '@tv-shop/contracts';
import {
  AppError,
  describeError,
  fold,
  handleCommand,
  type CommandEnvelope,
  type CommandOutcome,
  type EventStore,
  type Logger,
} from '@tv-shop/platform';
import { productDecider, type ProductCommand } from '../product/decide';
import type { ProductEvent, ProductState } from '../product/product';
import { ACTIVE_LIMIT, sellerListingsDecider, type SellerListingsCommand } from './decide';
import { limitsOn, type ListingLimits } from './limits';

/** The shop's own staff and processes (the admin, the demo seed, policies) list without a limit check. */
export const EXEMPT_ROLES: ReadonlySet<string> = new Set(['Admin', 'System']);
/** One seller's parallel listings queue on one stream: each conflict is a listing that got there first. */
const SLOT_ATTEMPTS = 32;
/** A slot younger than this may belong to a listing still on its way (a command is given up on after 30 s). */
export const SLOT_GRACE_MS = 2 * 60_000;
/** How often one seller's slots may be checked against their products: refused floods must not read a stream per slot each. */
export const SLOT_CHECK_EVERY_MS = 60_000;

type Meta = Pick<CommandEnvelope, 'actor' | 'correlationId'> & { causationId?: string | null };

/**
 * The seller's listing slots around catalog's product commands (ADR 0035): a slot is taken
 * before a listing or a "back for sale" is appended, so a refusal stores nothing, and freed
 * after a sale or removal. A slot left behind by a crash between the two appends is freed when
 * it matters: when the seller is at the active limit, the slots are checked against the products.
 */
export class ListingSlots {
  private readonly on: boolean;
  /** When each seller's slots were last checked (this process), for SLOT_CHECK_EVERY_MS. */
  private readonly checked = new Map<string, number>();
  /** Sellers whose slot stream this process has seen begun: their TVs from before are counted. */
  private readonly counted = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly limits: ListingLimits,
    private readonly now: () => Date,
    private readonly log: Logger,
    /** The ids of a seller's TVs for sale (catalog's read model), for a seller who listed before the limits. */
    private readonly forSale: (sellerId: string) => Promise<string[]>,
  ) {
    this.on = limitsOn(limits);
  }

  /**
   * Before ListProduct: takes the seller's slot, or refuses (429); for the exempt, takes it with no
   * check. Nothing with the limits off, or when the product exists already (a retry: its slot was
   * taken the first time).
   */
  async beforeListing(command: CommandOf<'catalog', 'ListProduct'>, env: CommandEnvelope): Promise<void> {
    if (!this.on) return;
    const state = await this.productState(command.data.productId);
    if (state.status !== 'none' || !this.productWouldAccept(command, state)) return;
    const { sellerId, productId } = command.data;
    const at = this.now().toISOString();
    // The admin's or the shop's own listing is never refused, but it is the seller's TV for sale: it holds a slot.
    await this.take(
      sellerId,
      EXEMPT_ROLES.has(env.actor.role)
        ? { type: 'HoldExisting', data: { sellerId, productIds: [productId], at } }
        : { type: 'OpenListing', data: { sellerId, productId, at, limits: this.limits } },
      env,
    );
  }

  /** Before MarkProductAvailable: the TV takes a slot again, or the seller is refused (429) at the active limit. */
  async beforeAvailable(command: CommandOf<'catalog', 'MarkProductAvailable'>, productId: string, env: CommandEnvelope): Promise<void> {
    if (!this.on || EXEMPT_ROLES.has(env.actor.role)) return;
    const state = await this.productState(productId);
    if (state.status !== 'listed' || !this.productWouldAccept(command, state)) return;
    const { sellerId } = state.listing;
    await this.take(
      sellerId,
      { type: 'ReopenListing', data: { sellerId, productId, at: this.now().toISOString(), limits: this.limits } },
      env,
    );
  }

  /** After any product command: a TV sold or removed gives its slot back. */
  async afterProductCommand(productId: string, outcome: CommandOutcome, meta: Meta): Promise<void> {
    if (!this.on) return;
    const cause = outcome.events.find((e) => e.type === 'ProductMarkedSold' || e.type === 'ProductRemoved');
    if (!cause) return;
    try {
      const state = await this.productState(productId);
      // For sale again since (this answers a late retry): the TV keeps its slot.
      if (state.status === 'none' || (state.status === 'listed' && !state.sold)) return;
      const { sellerId } = state.listing;
      const reason = state.status === 'removed' ? 'removed' : 'sold';
      await this.decideOn(
        sellerId,
        { type: 'FreeListings', data: { sellerId, productIds: [productId], reason } },
        { ...meta, causationId: cause.eventId },
      );
    } catch (err) {
      // The sale or removal stands; the check at the active limit frees this slot instead.
      this.log.warn(`could not free the listing slot of product ${productId}: ${describeError(err)}`);
    }
  }

  /**
   * The product's own checks, before a slot is spent: what it would refuse (a price, the photos,
   * not the seller's, not sold, a paid sale) takes no slot, and the product's handler answers it,
   * a retry of a command already done with its first answer.
   */
  private productWouldAccept(command: ProductCommand, state: ProductState): boolean {
    try {
      productDecider.decide(command, state);
      return true;
    } catch (err) {
      if (err instanceof AppError) return false;
      throw err;
    }
  }

  private async take(sellerId: string, command: SellerListingsCommand, meta: Meta): Promise<void> {
    await this.countExisting(sellerId, meta);
    try {
      await this.decideOn(sellerId, command, meta);
    } catch (err) {
      if (!(err instanceof AppError && err.field === ACTIVE_LIMIT) || !(await this.freeStale(sellerId, meta))) throw err;
      await this.decideOn(sellerId, command, meta);
    }
  }

  /**
   * A seller who listed before the limits existed has TVs for sale that hold no slot: the first
   * time their slots are counted (an empty stream), those TVs take one each, so the limit counts
   * them too. Once the stream has begun, it knows every TV for sale itself.
   */
  private async countExisting(sellerId: string, meta: Meta): Promise<void> {
    if (this.counted.has(sellerId)) return;
    if ((await this.store.readStream(streams.sellerListings(sellerId))).length === 0) {
      const productIds = await this.forSale(sellerId);
      // None: a new seller, whose first slot begins the stream.
      if (productIds.length === 0) return;
      this.log.info(`counting ${productIds.length} TV(s) seller ${sellerId} listed before the listing limits`);
      await this.decideOn(sellerId, { type: 'HoldExisting', data: { sellerId, productIds, at: this.now().toISOString() } }, meta);
    }
    this.counted.add(sellerId);
  }

  // A fresh command id each time: the decider's own state makes a slot command idempotent (a held
  // product takes nothing), which stays right even after a check freed a slot a retry comes back for.
  private decideOn(sellerId: string, command: SellerListingsCommand, meta: Meta): Promise<CommandOutcome> {
    const ctx = {
      commandId: randomUUID(),
      actor: meta.actor,
      correlationId: meta.correlationId,
      causationId: meta.causationId ?? null,
      now: this.now,
    };
    return handleCommand(this.store, sellerListingsDecider, streams.sellerListings(sellerId), command, ctx, SLOT_ATTEMPTS);
  }

  /** Frees the seller's stale slots, at most once a minute; answers whether any was freed. */
  private async freeStale(sellerId: string, meta: Meta): Promise<boolean> {
    const t = this.now().getTime();
    if ((this.checked.get(sellerId) ?? -Infinity) > t - SLOT_CHECK_EVERY_MS) return false;
    for (const [id, at] of this.checked) if (at <= t - SLOT_CHECK_EVERY_MS) this.checked.delete(id);
    this.checked.set(sellerId, t);
    const stale = await this.staleSlots(sellerId, t);
    if (stale.length === 0) return false;
    this.log.warn(`freeing ${stale.length} listing slot(s) of seller ${sellerId} whose TVs are not for sale`, { productIds: stale });
    await this.decideOn(sellerId, { type: 'FreeListings', data: { sellerId, productIds: stale, reason: 'not-for-sale' } }, meta);
    return true;
  }

  /** The held slots older than the grace whose TV is not for sale (never listed, sold, removed). */
  private async staleSlots(sellerId: string, t: number): Promise<string[]> {
    const history = await this.store.readStream(streams.sellerListings(sellerId));
    const state = fold(
      sellerListingsDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as SellerListingsEvent),
    );
    const old = [...state.held].filter(([, at]) => Date.parse(at) < t - SLOT_GRACE_MS).map(([id]) => id);
    const forSale = await Promise.all(
      old.map(async (id) => {
        const p = await this.productState(id);
        return p.status === 'listed' && !p.sold && p.listing.sellerId === sellerId;
      }),
    );
    return old.filter((_, i) => !forSale[i]);
  }

  private async productState(productId: string): Promise<ProductState> {
    const history = await this.store.readStream(streams.product(productId));
    return fold(
      productDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as ProductEvent),
    );
  }
}
