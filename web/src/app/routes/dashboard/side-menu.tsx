import { Menu } from 'antd';
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

export function SideMenu({ user, onNavigate }: { user: User; onNavigate?: (to: string) => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Dashboard">
      <Menu
        mode="inline"
        // The timeline of a stream belongs to the event log.
        selectedKeys={[pathname.startsWith(`${auditPaths.events.path}/`) ? auditPaths.events.href() : pathname]}
        items={menuEntries(user).map((entry) => ({
          key: entry.to,
          label: (
            <Link to={entry.to} onClick={() => onNavigate?.(entry.to)}>
              {entry.label}
            </Link>
          ),
        }))}
      />
    </nav>
  );
}
