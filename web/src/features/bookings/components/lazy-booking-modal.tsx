import type { Product } from '@tv-shop/contracts';
import { lazy, Suspense } from 'react';

// With antd and its theme: the pages that list TVs do not load antd themselves (ADR 0043).
const Modal = lazy(() =>
  Promise.all([import('./booking-modal'), import('@/lib/antd-theme')]).then(([m, t]) => ({ default: t.withAntd(m.BookingModal) })),
);

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
