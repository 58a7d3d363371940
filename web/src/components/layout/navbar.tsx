import { useLayoutEffect, useRef } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession, useSignOut } from '@/lib/session';

const links = [
  { to: paths.home.href(), label: 'Home' },
  { to: paths.allProducts.href(), label: 'All Products' },
  { to: paths.dashboard.root.href(), label: 'Dashboard' },
  { to: paths.blogs.href(), label: 'Blogs' },
];

export function Navbar() {
  const session = useSession();
  const signOut = useSignOut();
  const header = useRef<HTMLElement>(null);
  // The bar's height (one row, or two and more on a phone) as --navbar-height: toasts show below
  // it, never over the links (it stays at the top as the page scrolls).
  useLayoutEffect(() => {
    const el = header.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty('--navbar-height', `${el.offsetHeight}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      // A page without the bar (if one is ever shown) puts toasts back at the top.
      document.documentElement.style.removeProperty('--navbar-height');
    };
  }, []);
  return (
    <header className="navbar" ref={header}>
      <div className="navbar__inner">
        <Link to={paths.home.href()} className="navbar__brand" aria-label="TV Shop home">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>TV Shop</span>
        </Link>
        <nav aria-label="Main" className="navbar__links">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === '/'} className="navbar__link">
              {link.label}
            </NavLink>
          ))}
          {session.status === 'signed-in' ? (
            <Button variant="outline" size="small" onClick={() => signOut()} className="navbar__logout">
              Log Out
            </Button>
          ) : (
            <NavLink to={paths.login.href()} className="navbar__link">
              Login
            </NavLink>
          )}
        </nav>
      </div>
    </header>
  );
}
