import type { Product } from '@tv-shop/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EntityChange, EntityState } from '@/lib/entity-store';

/** A product push: a removal names whose listing it was when the gateway knew (`sellerId`). */
export type ProductPush = EntityChange<Product> & { sellerId?: string };

/** A push about one of a seller's listings, with the row as this tab's store had it before (if it had it). */
export interface SellerPush {
  push: ProductPush;
  before: Product | undefined;
}

type Listener = (push: ProductPush, before: Product | undefined) => void;
const listeners = new Set<Listener>();

/**
 * Tells the pages listening (`useSellerPushes`) of a product push the store is about to take,
 * with the row as the store has it: the live connection calls it before it applies the push. A
 * push the store would drop (at or below the position it holds for the row: a catch-up's replay)
 * is not told. A removal carries no row, and the store knows only rows some page read, so
 * `before` may be missing.
 */
export function announceProductPush(push: ProductPush, store: EntityState<Product>): void {
  if (listeners.size === 0 || push.position <= (store.positions.get(push.id) ?? -Infinity)) return;
  const before = store.rows.get(push.id);
  for (const listener of listeners) listener(push, before);
}

/**
 * Whether a push is about a listing of seller `sellerId`: the row's seller, else (a removal) the
 * row this tab had, else the one the push names, else (a gateway that names none) maybe theirs.
 */
export const isSellers = (sellerId: string, push: ProductPush, before: Product | undefined): boolean =>
  (push.op === 'upsert' ? push.row.sellerId : (before?.sellerId ?? push.sellerId ?? sellerId)) === sellerId;

/**
 * Calls `onPush` for each push about a listing of seller `sellerId`: one of theirs added,
 * changed or removed. A removal of a row this tab never read is theirs when it names them
 * (`sellerId`), or, from a gateway that does not name the seller, may be (the seller's view is one
 * of the few a page hears), so it is passed on too, with `before` undefined; the page decides what
 * is worth a read.
 */
export function useSellerPushes(sellerId: string | null, onPush: (p: SellerPush) => void): void {
  const latest = useRef(onPush);
  latest.current = onPush;
  useEffect(() => {
    if (!sellerId) return undefined;
    const listener: Listener = (push, before) => {
      if (isSellers(sellerId, push, before)) latest.current({ push, before });
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, [sellerId]);
}

/**
 * Whether a push about a seller's listing may change how many TVs they have for sale: a listing
 * new to this tab, one sold or back for sale, one for sale removed. An edit, advertising or a
 * report does not.
 */
export function mayChangeCount({ push, before }: SellerPush): boolean {
  if (push.op === 'remove') return !before?.sold;
  return before === undefined || before.sold !== push.row.sold;
}

/** A page's read again, soon: a short wait, and a random part so every open tab does not read at once. */
export const READ_AGAIN_MS = { wait: 300, spread: 1200 };

/**
 * A key for `usePageRead` that changes once, a moment after `soon()` is called (calls meanwhile
 * gather into that one read), so a burst of pushes costs one read in the background. A new
 * `scope` (the page shows another product or seller) forgets a read still to come.
 */
export function useReadAgainSoon(scope: string): [key: number, soon: () => void] {
  const [key, setKey] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [scope],
  );
  const soon = useCallback(() => {
    timer.current ??= setTimeout(
      () => {
        timer.current = null;
        setKey((k) => k + 1);
      },
      READ_AGAIN_MS.wait + Math.random() * READ_AGAIN_MS.spread,
    );
  }, []);
  return [key, soon];
}
