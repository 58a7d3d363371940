import type { Product } from '@tv-shop/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EntityChange } from '@/lib/entity-store';

type ProductPushListener = (push: EntityChange<Product>, before: Product | undefined) => void;
const listeners = new Set<ProductPushListener>();

/**
 * Tells the pages listening (`useSellerPushes`) of a product push, with the row as the store had
 * it before: the live connection calls it before it applies the push. A removal carries no row,
 * and the store knows only the rows some page read, so `before` may be missing.
 */
export function announceProductPush(push: EntityChange<Product>, before: Product | undefined): void {
  for (const listener of listeners) listener(push, before);
}

/**
 * Calls `onPush` for each push that may change what a page shows of seller `sellerId` beyond
 * their listings' rows (their count of TVs for sale, whether they are still here): one of their
 * listings added or changed, or removed, with whether it was removed and its id. A removal of a
 * listing this tab never read may be theirs (the seller's view is one of few a page hears), so it
 * counts too: the worst it costs is a read of the page.
 */
export function useSellerPushes(sellerId: string | null, onPush: (removed: boolean, productId: string) => void): void {
  const latest = useRef(onPush);
  latest.current = onPush;
  useEffect(() => {
    if (!sellerId) return undefined;
    const listener: ProductPushListener = (push, before) => {
      if (push.op === 'upsert' ? push.row.sellerId === sellerId : (before?.sellerId ?? sellerId) === sellerId)
        latest.current(push.op === 'remove', push.id);
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, [sellerId]);
}

/** A page's read again, soon: a short wait, and a random part so every open tab does not read at once. */
export const READ_AGAIN_MS = { wait: 300, spread: 1200 };

/**
 * A key for `usePageRead` that changes once, a moment after `soon()` is called (calls meanwhile
 * gather into that one read), so a burst of pushes costs one read in the background.
 */
export function useReadAgainSoon(): [key: number, soon: () => void] {
  const [key, setKey] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
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
