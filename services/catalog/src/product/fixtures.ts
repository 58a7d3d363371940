import type { ProductListing } from '@tv-shop/contracts';

/** A listing as the gateway sends it (catalog fills in the category's name), for catalog's specs. */
export const listing = (sellerId: string, productId: string, over: Partial<ProductListing> = {}): ProductListing => ({
  productId,
  name: `Walton 32" ${productId}`,
  imageUrl: '/api/images/x',
  details: 'ok',
  location: 'Dhaka',
  resalePricePoisha: 100_000,
  originalPricePoisha: 200_000,
  useDuration: '1 year',
  condition: 'Good',
  phone: '017',
  categoryId: 'samsung',
  categoryName: '',
  sellerId,
  sellerName: 'Karim',
  sellerEmail: `${sellerId}@example.com`,
  postedOn: '21-11-2026',
  ...over,
});
