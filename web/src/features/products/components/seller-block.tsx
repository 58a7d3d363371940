import type { SellerProfile } from '@tv-shop/contracts';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { VerifiedMark } from './verified-mark';

export const listingsText = (n: number) => `${n} available ${n === 1 ? 'listing' : 'listings'}`;

/** Who sells a TV: name, verified check, since when, how many listings, and a link to them all. */
export function SellerBlock({ seller }: { seller: SellerProfile | null }) {
  return (
    <section className="seller-block" aria-labelledby="seller-block-heading">
      <h2 id="seller-block-heading" className="seller-block__heading">
        Seller
      </h2>
      {seller ? (
        <>
          <p className="seller-block__name">
            {seller.name} {seller.verified ? <VerifiedMark /> : null}
          </p>
          <p className="seller-block__meta">Member since {formatDate(seller.memberSince)}</p>
          <p className="seller-block__meta">{listingsText(seller.availableCount)}</p>
          <Link className="seller-block__link" to={paths.seller.href(seller._id)}>
            See all listings by {seller.name}
          </Link>
        </>
      ) : (
        <p className="seller-block__meta">This seller&apos;s account no longer exists.</p>
      )}
    </section>
  );
}
