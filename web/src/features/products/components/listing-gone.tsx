import { removedReasonText, type RemovedListing } from '@tv-shop/contracts';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { focusLost, focusUnlisted } from '@/lib/focus-heading';
import { formatDay } from '@/lib/format';
import { capitalized } from '@/lib/problem-text';

export const NO_LONGER_FOR_SALE = 'This TV is no longer for sale';

/**
 * A listing that was for sale and is no longer: opened from a link (the server's 410 says why and
 * names its category), or removed while its page was open (why is known once it is read again).
 */
export function ListingGone({ removed, removedWhileOpen }: { removed: RemovedListing | null; removedWhileOpen: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Removed while open: the button that had the focus (Book now) went with it; the heading takes it.
  useEffect(() => {
    if (removedWhileOpen && heading.current && focusLost()) focusUnlisted(heading.current);
  }, [removedWhileOpen]);
  return (
    <section className="listing-gone" aria-labelledby="listing-gone-title">
      <h1 id="listing-gone-title" ref={heading}>
        {NO_LONGER_FOR_SALE}
      </h1>
      <p>
        {removed
          ? // The day first: "… after it was reported on 30 November" would read as the report's day.
            removed.removedOn
            ? `On ${formatDay(removed.removedOn)}, ${removedReasonText(removed.reason)}.`
            : `${capitalized(removedReasonText(removed.reason))}.`
          : 'This listing has been removed.'}
      </p>
      <p className="listing-gone__links">
        {removed && (
          <Link className="button-link" to={paths.category.href(removed.category.id)}>
            More from {removed.category.name}
          </Link>
        )}
        <Link to={paths.allProducts.href()}>See all the TVs for sale</Link>
      </p>
    </section>
  );
}
