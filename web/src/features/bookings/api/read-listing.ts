import type { ProductPageAnswer } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';

/** The listing as it is now: for a booking refused because its seller changed it since the dialog opened. */
export const readListing = async (id: string) => (await apiRead<ProductPageAnswer>(`/product/${encodeURIComponent(id)}`)).data.product;
