import type { Product, SellerProfile } from '@tv-shop/contracts';
import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useMemo, useState } from 'react';
import { noteListRead } from '@/lib/live-socket';
import { listsReloadAtom, useWatchView } from '@/lib/use-live-list';
import { usePageRead } from '@/lib/use-page-read';
import { getProductPage } from './api/get-product-page';
import { getSellerPage } from './api/get-seller-page';
import { productsStore } from './atoms';
import { useIdList } from './use-id-list';
import { useNewlyListed } from './use-newly-listed';

/**
 * One page's read (a 404 is its `notFound`); a resync (the server cannot replay what the tab
 * missed) reads it again in the background.
 */
const usePageReadLive = (load: () => Promise<void>) => usePageRead(load, useAtomValue(listsReloadAtom));

/**
 * The product (live: a push changes it in place, a removal empties it) and its seller's profile
 * (its name and tick live too). `refresh` reads it again in the background, the page staying up.
 */
export function useProductPage(id: string) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [seller, setSeller] = useState<{ id: string; profile: SellerProfile | null } | null>(null);
  const view = useMemo(() => ({ kind: 'product' as const, id }), [id]);
  useWatchView(view);
  const load = useCallback(async () => {
    const { data, position } = await getProductPage(id);
    loadIntoStore({ rows: [data.product], position, inScope: (p) => p._id === id });
    noteListRead(position, view);
    setSeller({ id, profile: data.seller });
  }, [id, loadIntoStore]);
  const state = usePageReadLive(load);
  const product: Product | undefined = useAtomValue(productsStore.stateAtom).rows.get(id);
  // The profile is read with the page; its name and tick follow the product, which a seller's
  // new name or verification changes by push.
  const profile = seller?.id === id ? seller.profile : null;
  const verified = product?.sellerVerified;
  const name = product?.seller;
  const live = useMemo(() => {
    if (!profile) return null;
    const nowVerified = verified ?? profile.verified;
    const nowName = name || profile.name;
    return nowVerified === profile.verified && nowName === profile.name ? profile : { ...profile, verified: nowVerified, name: nowName };
  }, [profile, verified, name]);
  return { ...state, product, seller: live, refresh: load };
}

const available = (p: Product) => !p.sold;

/**
 * A seller's profile and their listings still for sale, live: one sold drops out by push, and one
 * they list after the page was read (the seller's view hears it) joins at the top.
 */
export function useSellerPage(id: string) {
  const loadIntoStore = useSetAtom(productsStore.loadAtom);
  const [page, setPage] = useState<{ id: string; seller: SellerProfile; ids: string[]; email: string | null; readAt: number } | null>(null);
  const load = useCallback(async () => {
    const { data, position } = await getSellerPage(id);
    loadIntoStore({ rows: data.listings, position, inScope: () => false });
    // The seller's listings, by the email they carry: with none, there is nothing to keep live.
    const email = data.listings[0]?.sellerEmail ?? null;
    noteListRead(position, email ? { kind: 'seller', email } : undefined);
    setPage({ id, seller: data.seller, ids: data.listings.map((p) => p._id), email, readAt: position });
  }, [id, loadIntoStore]);
  const state = usePageReadLive(load);
  const current = page?.id === id ? page : null;
  const viewEmail = current?.email ?? null;
  useWatchView(useMemo(() => (viewEmail ? { kind: 'seller' as const, email: viewEmail } : null), [viewEmail]));
  const email = viewEmail?.toLowerCase() ?? null;
  const ids = useMemo(() => current?.ids ?? [], [current]);
  const read = useIdList(ids, available);
  // Listed after the read, by this seller: new since, newest first, above the ones read.
  const matches = useCallback((p: Product) => email !== null && p.sellerEmail.toLowerCase() === email && available(p), [email]);
  const added = useNewlyListed(current, matches);
  const listings = useMemo(() => (added.length === 0 ? read : [...added, ...read]), [added, read]);
  return { ...state, seller: current?.seller ?? null, listings };
}
