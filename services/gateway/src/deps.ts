import type pg from 'pg';
import type { AccountLookup } from './auth/middleware';
import type { EventStore, TransportHealth, VerifyResult } from '@tv-shop/platform';
import type { EdgePayments } from '@tv-shop/orders';
import type { CommandSender } from './commands';
import type { GoogleIdentity } from './auth/google';
import type { Tokens } from './auth/tokens';
import type { GatewayConfig } from './config';
import type { ListCache } from './http/list-cache';
import type { ImageStore } from '@tv-shop/images';
import type { ReadModels } from './read-models';

/** What the routes need, passed in (routers are factories; nothing reaches for globals). */
export interface GatewayDeps {
  config: GatewayConfig;
  pool: pg.Pool;
  databaseMode: 'embedded' | 'external';
  store: EventStore;
  reads: ReadModels;
  sender: CommandSender;
  tokens: Tokens;
  verifyGoogle: (idToken: string) => Promise<GoogleIdentity>;
  /** Which provider, Stripe's publishable key, and its webhook checked: orders keeps the provider. */
  payments: EdgePayments;
  images: ImageStore;
  /** The log position every read model has reached (read-your-writes, X-Position). */
  position: () => number;
  /**
   * Serialized public lists, keyed by the catalog projection's position; and product and seller
   * pages apart (`pages`), keyed by the positions of the catalog and the users (identity) read
   * models, whose rows they join (ADR 0067).
   */
  lists: { cache: ListCache; version: () => number; pages: ListCache; pagesVersion: () => string };
  /**
   * Rebuilds a projection into scratch tables and compares it with the live one (the admin's
   * Verify button); a conflict while one is already running. Absent where the host does not know
   * the projections.
   */
  verifier?: { names: string[]; verify: (name: string) => Promise<VerifyResult> };
  /** The account behind a token and its password stamp (kept between requests, dropped on its change); default: read each time. */
  accounts?: AccountLookup;
  /** Where this process is in its life, for GET /api/ready (absent: always ready). */
  lifecycle?: () => 'starting' | 'ready' | 'stopping';
  /**
   * This process's command transport, when the database cannot tell its state: with Kafka,
   * degraded once kafkajs gave up on the consumer of its replies (or of a service's commands it
   * hosts); GET /api/health then answers 503. Absent: nothing to say beyond the database.
   */
  transport?: () => TransportHealth;
}
