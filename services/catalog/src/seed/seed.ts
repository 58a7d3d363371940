import { streams } from '@tv-shop/contracts';
import { handleCommand, SYSTEM_ACTOR, type Decider, type EventStore } from '@tv-shop/platform';
import { seedBlogs } from './blogs';
import { seedCategories } from './categories';

type SeedEvent = { type: string; data: Record<string, unknown> };
/** A seed stream holds one event: it is written once and never again. */
const once: Decider<SeedEvent, SeedEvent, { written: boolean }> = {
  initialState: () => ({ written: false }),
  evolve: () => ({ written: true }),
  decide: (c, s) => (s.written ? [] : [c]),
};

/** Categories and blogs as events, on first start only (command ids make it idempotent). */
export async function seedCatalog(store: EventStore, now: () => Date): Promise<void> {
  const ctx = (id: string) => ({ commandId: `seed:${id}`, actor: SYSTEM_ACTOR, correlationId: 'seed', now });
  for (const c of seedCategories) {
    await handleCommand(store, once, streams.category(c.categoryId), { type: 'CategoryAdded', data: c }, ctx(`category:${c.categoryId}`));
  }
  for (const b of seedBlogs) {
    await handleCommand(store, once, streams.blog(b.blogId), { type: 'BlogPublished', data: b }, ctx(`blog:${b.blogId}`));
  }
}
