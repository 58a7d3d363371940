import type { User } from '@tv-shop/contracts';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { auditPaths } from '@/features/audit/paths';
import { hasRole } from '@/lib/session';

const d = paths.dashboard;

/** Profile always; then what the user's role may do (section 2). */
function menuEntries(user: User) {
  const entries: { to: string; label: string }[] = [{ to: d.root.href(), label: 'Profile' }];
  if (hasRole(user, 'Buyer')) entries.push({ to: d.myOrders.href(), label: 'My Order' });
  if (hasRole(user, 'Seller')) {
    entries.push(
      { to: d.addProduct.href(), label: 'Add Product' },
      { to: d.myProducts.href(), label: 'My Products' },
      { to: d.myBookings.href(), label: 'My Bookings' },
    );
  }
  if (hasRole(user, 'Admin')) {
    entries.push(
      { to: d.allSellers.href(), label: 'All Sellers' },
      { to: d.allBuyers.href(), label: 'All Buyers' },
      { to: d.reportedItems.href(), label: 'Reported Items' },
      { to: auditPaths.events.href(), label: 'Event Log' },
    );
  }
  return entries;
}

/** The dashboard's pages for this user's role, the current one marked (aria-current). */
export function SideMenu({ user, onNavigate }: { user: User; onNavigate?: (to: string) => void }) {
  const { pathname } = useLocation();
  // The timeline of a stream belongs to the event log.
  const current = pathname.startsWith(`${auditPaths.events.path}/`) ? auditPaths.events.href() : pathname;
  return (
    <nav aria-label="Dashboard" className="side-menu">
      <ul>
        {menuEntries(user).map((entry) => (
          <li key={entry.to}>
            <Link
              to={entry.to}
              className="side-menu__link"
              aria-current={entry.to === current ? 'page' : undefined}
              onClick={() => onNavigate?.(entry.to)}
            >
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
