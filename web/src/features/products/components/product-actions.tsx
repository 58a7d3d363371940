import { MAX_OWN_CANCELLATIONS, type Product } from '@tv-shop/contracts';
import { useAtomValue } from 'jotai';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Tag } from '@/components/ui/tag';
import { paths } from '@/config/paths';
import { myBookingsReadyAtom, useMyBookingOf } from '@/lib/my-bookings';
import { hasRole, useSessionUser } from '@/lib/session';
import { ReportButton } from './report-button';

/** The state of the page a buyer comes back to from Book Now's sign-in: the TV whose booking form to open. */
export interface BackToBook {
  openBooking: string;
}

interface ProductActionsProps {
  product: Product;
  /** Opens the booking for a signed-in buyer; the page owns the modal. */
  onBook: (product: Product) => void;
  className?: string;
}

/**
 * Book Now (a visitor is sent to sign in first and comes back) and Add Report, or the Reported
 * tag: what a card and the product page offer alike. A buyer who has booked the TV sees that
 * instead, with the way to pay (My Orders), or that they bought it; its seller, the way to edit it
 * (or to My Products, where a sold or reported one is managed).
 */
export function ProductActions({ product, onBook, className = 'product-card__actions' }: ProductActionsProps) {
  const user = useSessionUser();
  const isBuyer = hasRole(user, 'Buyer');
  const own = user !== null && product.sellerId === user._id;
  const navigate = useNavigate();
  const location = useLocation();
  const mine = useMyBookingOf(product._id);
  // Book Now gives way to "Booked" as the booking's push arrives, often while it has the focus
  // (the booking dialog hands it back on closing): the focus then moves to the link, not to the page.
  const bookNowRef = useRef<HTMLButtonElement>(null);
  const bookedRef = useRef<HTMLAnchorElement>(null);
  const moveFocus = useRef(false);
  if (mine === 'open' && bookNowRef.current !== null && bookNowRef.current === document.activeElement) moveFocus.current = true;
  useLayoutEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    bookedRef.current?.focus();
  }, [mine]);

  const book = () => {
    if (!user) void navigate(paths.login.href(), { state: { from: location, reason: 'book', book: product._id } });
    else onBook(product);
  };

  // Back from signing in to book this TV: its booking form opens, as the login page promised,
  // unless it was sold or booked meanwhile (known once the buyer's bookings were read). The state
  // goes, so a reload or Back does not open it again.
  const openBooking = (location.state as BackToBook | null)?.openBooking;
  const bookingsRead = useAtomValue(myBookingsReadyAtom) === user?.email.toLowerCase();
  useEffect(() => {
    if (openBooking !== product._id || !isBuyer || !bookingsRead) return;
    void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
    if (!product.sold && !mine) onBook(product);
  }, [openBooking, product, isBuyer, bookingsRead, mine, onBook, navigate, location.pathname, location.search, location.hash]);

  return (
    <div className={className}>
      {mine === 'paid' ? (
        <Tag color="green" className="my-booking-label">
          You bought this
        </Tag>
      ) : mine === 'closed' ? (
        <p className="my-booking-closed">You cancelled your booking of this TV {MAX_OWN_CANCELLATIONS} times: it cannot be booked again.</p>
      ) : mine === 'open' ? (
        <Link ref={bookedRef} className="btn btn--outline my-booking-link" to={paths.dashboard.myOrders.href()}>
          <span>Booked: pay in My Orders</span>
        </Link>
      ) : own ? (
        !product.sold && !product.reported ? (
          <Link
            className="btn btn--outline"
            to={paths.dashboard.editProduct.href(product._id)}
            aria-label={`Edit your listing: ${product.porduct_name}`}
          >
            <span>Edit your listing</span>
          </Link>
        ) : (
          <Link
            className="btn btn--outline"
            to={paths.dashboard.myProducts.href()}
            aria-label={`Your listing: My Products (${product.porduct_name})`}
          >
            <span>Your listing: My Products</span>
          </Link>
        )
      ) : !user || isBuyer ? (
        <Button ref={bookNowRef} variant="primary" onClick={book} disabled={product.sold}>
          Book Now
        </Button>
      ) : null}
      {isBuyer ? (
        <ReportButton product={product} />
      ) : product.reported ? (
        <Tag color="orange" className="reported-label">
          Reported
        </Tag>
      ) : null}
    </div>
  );
}
