import type { Product } from '@tv-shop/contracts';
import { PhoneLink } from '@/components/ui/phone-link';

/** A listing's contact phone as a link that dials it, named for whom it calls; "Not available" without one. */
export function ContactPhone({ product }: { product: Pick<Product, 'phone_number' | 'seller'> }) {
  if (!product.phone_number) return <>Not available</>;
  return <PhoneLink phone={product.phone_number} of={product.seller} />;
}
