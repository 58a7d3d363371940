import type { Product, SellerProfile } from '@tv-shop/contracts';
import { useSetAtom } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { useWatchView } from '@/lib/use-live-list';
import { getSellerPage } from './api/get-seller-page';
import { productsStore } from './atoms';
import { useIdList } from './use-id-list';
import { useNewlyListed } from './use-newly-listed';
import { usePageReadLive, useProfileAsListed } from './use-product-page';
import { mayChangeCount, useReadAgainSoon, useSellerPushes } from './use-seller-pushes';

const available = (p: Product) => !p.sold;

/**
 * A seller's profile and their listings still for sale, live: one sold drops out by push, and one
 * they list after the page was read (the seller's view, by their id, hears it even when they had
 * none) joins at the top. Their name and tick follow their newest listing's. A listing removed
 * (by the admin, or with the seller's account) reads the page again in the background: a deleted
 * seller's page then says the seller is not found.
 */
export function useSellerPage(id: string) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [page, setPage] = useState<{ id: string; seller: SellerProfile; ids: string[]; readAt: number } | null>(null);
  const view = useMemo(() => ({ kind: 'seller' as const, id }), [id]);
  useWatchView(view);
  const load = useCallback(async () => {
    const { data, position } = await getSellerPage(id);
    loadIntoStore({ rows: data.listings, position, inScope: () => false });
    noteListRead(position, view);
    setPage({ id, seller: data.seller, ids: data.listings.map((p) => p._id), readAt: position });
  }, [id, view, loadIntoStore]);
  const [again, readAgainSoon] = useReadAgainSoon(id);
  // Read again when what is for sale may have changed: a listing removed, or one sold or for sale
  // again (made available, it is not newly listed, so nothing else would bring it back).
  useSellerPushes(id, (pushed) => {
    if (mayChangeCount(pushed)) readAgainSoon();
  });
  const state = usePageReadLive(load, again);
  const current = page?.id === id ? page : null;
  const ids = useMemo(() => current?.ids ?? [], [current]);
  const read = useIdList(ids, available);
  // For sale since the read, by this seller: listed since (on top), or for sale again (in its
  // place by listing time, newest first, as the server orders the page).
  const matches = useCallback((p: Product) => p.sellerId === id && available(p), [id]);
  const added = useNewlyListed(current, matches);
  const listings = useMemo(() => (added.length === 0 ? read : newestFirst([...added, ...read])), [added, read]);
  const seller = useProfileAsListed(current?.seller ?? null, listings[0]);
  return { ...state, seller, listings };
}

const newestFirst = (rows: Product[]) => rows.sort((a, b) => b.listedAt - a.listedAt);
