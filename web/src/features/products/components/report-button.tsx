import type { Product } from '@tv-shop/contracts';
import { atom, useAtomValue, useSetAtom } from 'jotai';
import toast from 'react-hot-toast';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Tag } from '@/components/ui/tag';
import { Button } from '@/components/ui/button';
import { retryableLazy } from '@/lib/code-download';
import { errorMessage } from '@/lib/api-client';
import { useSessionUser } from '@/lib/session';
import { useMounted } from '@/lib/use-mounted';
import { focusLost } from '@/lib/focus-heading';
import { getMyReports } from '../api/get-my-reports';

// The dialog (antd's Modal, in the shop's theme) is downloaded when a buyer first presses Add Report.
const ReportDialog = retryableLazy(() =>
  Promise.all([import('./report-dialog'), import('@/lib/antd-theme')]).then(([m, t]) => t.withAntd(m.ReportDialog)),
);

/** Counts Add Report presses: only the last one's dialog opens once its code has come. */
let lastPressed = 0;

/** The listings this buyer reported, by buyer and listing: each buyer reports a listing once. */
const reportedHere = new Set<string>();

/** Bumped when the server's answer changed what `reportedHere` says: the cards render again. */
const myReportsReadAtom = atom(0);
/** How many report buttons are on the page; whose reports were last read, and one read at a time. */
let shown = 0;
let readFor: string | null = null;
let reading = false;
/** Reports made in this tab since the read on its way was sent: its answer may not have them yet. */
const madeSinceRead = new Set<string>();

/**
 * The buyer's open reports, read when a page with report buttons opens (and for another buyer),
 * so the listings they reported say so instead of offering Add Report, which would be refused.
 * Read again on each such page: the admin may have dismissed reports since (the listing may then
 * be reported again by anyone), which a page away from its card did not hear.
 */
function useMyReports(userId: string | undefined) {
  const bump = useSetAtom(myReportsReadAtom);
  useAtomValue(myReportsReadAtom);
  useEffect(() => {
    if (!userId) return;
    shown += 1;
    if ((shown === 1 || readFor !== userId) && !reading) {
      reading = true;
      readFor = userId;
      madeSinceRead.clear();
      getMyReports()
        .then(
          (ids) => {
            const mine = `${userId}:`;
            for (const key of [...reportedHere]) if (key.startsWith(mine) && !madeSinceRead.has(key)) reportedHere.delete(key);
            for (const id of ids) reportedHere.add(mine + id);
            bump((n) => n + 1);
          },
          // Not read: what this tab knew stays, and a second report is refused with the server's own words.
          () => undefined,
        )
        .finally(() => {
          reading = false;
        });
    }
    return () => {
      shown -= 1;
    };
  }, [userId, bump]);
}

/**
 * Add Report asks first, with room to say what is wrong; the admin reads it in Reported Items.
 * A listing someone else reported may be reported again by each buyer (the admin reads every
 * reason), so the button stays beside the Reported tag until this buyer has reported it.
 */
export function ReportButton({ product }: { product: Product }) {
  const user = useSessionUser();
  const [open, setOpen] = useState(false);
  const [, setReported] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const done = useRef<HTMLSpanElement>(null);
  const key = `${user?._id ?? ''}:${product._id}`;
  useMyReports(user?._id);
  // Its reports dismissed, the listing may be reported again by anyone, this buyer too.
  if (!product.reported) reportedHere.delete(key);
  // The dialog leaves with its close: focus goes back to the button that opened it, or, once a
  // report turned it into the tag, to the tag, not to the page's start. After the render that
  // closed it, when the refs name what is on the page.
  const refocus = useRef(false);
  const close = () => {
    setOpen(false);
    refocus.current = true;
  };
  useEffect(() => {
    if (open || !refocus.current) return;
    refocus.current = false;
    // Only where it was lost with the dialog: a report that ends after the buyer closed the dialog
    // and moved on (Esc while it was sent) does not take the focus back.
    if (!focusLost()) return;
    (button.current ?? done.current)?.focus();
  });
  // Its code first: should it not come (the phone went offline), the buyer is told, and the
  // button downloads it again when pressed again. Of several pressed while it comes, the last one
  // opens; none once its card has left the page.
  const mounted = useMounted();
  const openDialog = () => {
    const pressed = ++lastPressed;
    void ReportDialog.preload().then(
      () => {
        if (mounted.current && pressed === lastPressed) setOpen(true);
      },
      (error: unknown) => {
        if (mounted.current && pressed === lastPressed)
          toast.error(`Could not open the report form. ${errorMessage(error)}`, { id: 'code-report-form' });
      },
    );
  };
  const reported = () => {
    reportedHere.add(key);
    madeSinceRead.add(key);
    setReported(true);
  };
  if (reportedHere.has(key))
    return (
      <Tag color="orange" className="reported-label" tabIndex={-1} ref={done}>
        You reported this
      </Tag>
    );
  return (
    <>
      {product.reported ? (
        <Tag color="orange" className="reported-label">
          Reported
        </Tag>
      ) : null}
      <Button ref={button} variant="danger" onClick={openDialog}>
        Add Report
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ReportDialog product={product} onClose={close} onReported={reported} />
        </Suspense>
      ) : null}
    </>
  );
}
