import type { Product } from '@tv-shop/contracts';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';

// The dialog (antd's Modal, in the shop's theme) is downloaded when a buyer first presses Add Report.
const ReportDialog = lazy(() =>
  Promise.all([import('./report-dialog'), import('@/lib/antd-theme')]).then(([m, t]) => ({ default: t.withAntd(m.ReportDialog) })),
);

/** Add Report asks first, with room to say what is wrong; the admin reads it in Reported Items. */
export function ReportButton({ product }: { product: Product }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The dialog leaves with its close: focus goes back to the button that opened it (if it is
  // still there: a report turns it into the Reported tag).
  const close = () => {
    setOpen(false);
    setTimeout(() => button.current?.focus(), 0);
  };
  return (
    <>
      <Button ref={button} variant="danger" onClick={() => setOpen(true)}>
        Add Report
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ReportDialog product={product} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
