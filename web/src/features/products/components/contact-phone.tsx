import type { Product } from '@tv-shop/contracts';
import { telHref } from '@/lib/format';

/** A listing's contact phone as a link that dials it, named for whom it calls; "Not available" without one. */
export function ContactPhone({ product }: { product: Pick<Product, 'phone_number' | 'seller'> }) {
  if (!product.phone_number) return <>Not available</>;
  return (
    <a href={telHref(product.phone_number)} aria-label={`Call ${product.seller} on ${product.phone_number}`}>
      {product.phone_number}
    </a>
  );
}
