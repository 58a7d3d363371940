import type { Product, ReportedProduct } from '@tv-shop/contracts';
import { createEntityStore } from '@/lib/entity-store';

/** Every product this browser has seen; each page shows a filter of it, kept live by pushes. */
export const productsStore = createEntityStore<Product>();

/** Reported products with who reported each and why: the admin's Reported Items, kept live by pushes. */
export const reportedProductsStore = createEntityStore<ReportedProduct>();

export const productScopes = {
  // Contracts' `inAdvertised` written out: importing it costs the Edit page's bundle, at its ceiling, ~180 bytes (ADR 0077).
  advertised: (p: Product) => p.advertised && !p.sold && !p.reported,
  reported: (p: Product) => p.reported,
  ofSeller: (email: string) => (p: Product) => p.sellerEmail.toLowerCase() === email.toLowerCase(),
};
