import type { Product } from '@tv-shop/contracts';
import { lazy, Suspense } from 'react';

const Modal = lazy(() => import('./booking-modal').then((m) => ({ default: m.BookingModal })));

/**
 * The booking dialog, downloaded when a buyer first presses "Book now" rather than with every
 * page that lists TVs (issue 15's budget).
 */
export function BookingModal({ product, onClose }: { product: Product | null; onClose: () => void }) {
  if (!product) return null;
  return (
    <Suspense fallback={null}>
      <Modal product={product} onClose={onClose} />
    </Suspense>
  );
}
