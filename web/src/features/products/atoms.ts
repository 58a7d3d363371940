import type { Product, ReportedProduct } from '@tv-shop/contracts';
import { createEntityStore } from '@/lib/entity-store';

/** Every product this browser has seen; each page shows a filter of it, kept live by pushes. */
export const productsStore = createEntityStore<Product>();

/** Reported products with who reported each and why: the admin's Reported Items, kept live by pushes. */
export const reportedProductsStore = createEntityStore<ReportedProduct>();

export const productScopes = {
  // As the server's list: a reported one leaves it until the admin has reviewed it (ADR 0077).
  advertised: (p: Product) => p.advertised && !p.sold && !p.reported,
  reported: (p: Product) => p.reported,
  ofSeller: (email: string) => (p: Product) => p.sellerEmail.toLowerCase() === email.toLowerCase(),
};
