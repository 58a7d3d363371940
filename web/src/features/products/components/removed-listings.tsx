import { removedReasonText } from '@tv-shop/contracts';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { formatDay } from '@/lib/format';
import { logFailure } from '@/lib/api-client';
import { ownRemovedAtom, readOwnRemoved } from '../api/get-own-removed';

/**
 * A seller's listings taken off the shop, with who took each off and when: a removal by the
 * admin while they were away is told here, not only by a notice they may have missed. Nothing is
 * shown when there is none, or when it could not be read (the listings above are what matters).
 */
export function RemovedListings({ sellerId }: { sellerId: string }) {
  const [removed, setRemoved] = useAtom(ownRemovedAtom);
  useEffect(() => {
    if (sellerId) readOwnRemoved(sellerId, setRemoved).catch(logFailure);
  }, [sellerId, setRemoved]);
  const list = removed?.sellerId === sellerId ? removed.list : [];
  if (list.length === 0) return null;
  return (
    <section className="removed-listings" aria-labelledby="removed-listings-title">
      <h2 id="removed-listings-title">Taken off TV Shop</h2>
      <ul>
        {list.map((r) => (
          <li key={r._id}>
            <strong>{r.porduct_name}</strong>: on {formatDay(r.removedOn)},{' '}
            {r.reason === 'withdrawn' ? 'you took it off TV Shop' : removedReasonText(r.reason)}.
          </li>
        ))}
      </ul>
    </section>
  );
}
