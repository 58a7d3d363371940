import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/lib/api-client';
import { retryableLazy } from '@/lib/code-download';
import type { BookingDialogProps } from './booking-modal';

// With antd and its theme: the pages that list TVs do not load antd themselves (ADR 0043).
const Modal = retryableLazy(() =>
  Promise.all([import('./booking-modal'), import('@/lib/antd-theme')]).then(([m, t]) => t.withAntd(m.BookingModal)),
);

/**
 * The booking dialog, downloaded when a buyer first presses "Book now" rather than with every
 * page that lists TVs (issue 15's budget). It is unmounted as it closes, before antd's dialog
 * could hand the focus back, so the focus goes back here to what had it when the dialog opened
 * (the Book Now button), as it does from the other dialogs, or to what replaced it.
 */
export function BookingModal({ product, left, at, onClose }: BookingDialogProps) {
  const opener = useRef<{ element: HTMLElement; place: HTMLElement | null } | null>(null);
  const open = product !== null;
  useLayoutEffect(() => {
    if (open) {
      const element = document.activeElement;
      // Its place is taken now: once it is removed, it no longer knows where it was.
      opener.current = element instanceof HTMLElement ? { element, place: element.parentElement } : null;
      return;
    }
    const back = opener.current?.element;
    const place = opener.current?.place;
    opener.current = null;
    if (back?.isConnected) back.focus();
    // Replaced meanwhile (the booking's push turned Book Now into "Booked"): what took its place.
    else if (place?.isConnected) place.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();
  }, [open]);
  // Its code first, then the dialog: should the code not come (the phone went offline), the
  // buyer is told, the dialog is closed, and Book Now downloads it again when pressed again.
  const [ready, setReady] = useState(false);
  // The page hands a new onClose each render; the download is not started again for it.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    if (!open || ready) return;
    let current = true;
    void Modal.preload().then(
      () => {
        if (current) setReady(true);
      },
      (error: unknown) => {
        if (!current) return;
        toast.error(`Could not open the booking form. ${errorMessage(error)}`, { id: 'code-booking-form' });
        close.current();
      },
    );
    return () => {
      current = false;
    };
  }, [open, ready]);
  if (!product || !ready) return null;
  return (
    <Suspense fallback={null}>
      <Modal product={product} left={left} at={at} onClose={onClose} />
    </Suspense>
  );
}
