import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession, useSignOut } from '@/lib/session';

export function Footer() {
  const session = useSession();
  const signOut = useSignOut();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div>
          <p className="footer__brand">TV Shop</p>
          <p>Providing Services since 2018</p>
        </div>
        <nav aria-label="Pages">
          <h2 className="footer__title">Pages</h2>
          <ul>
            <li>
              <Link to={paths.home.href()}>Home</Link>
            </li>
            <li>
              <Link to={paths.allProducts.href()}>All Products</Link>
            </li>
            <li>
              <Link to={paths.dashboard.root.href()}>Dashboard</Link>
            </li>
            <li>
              <Link to={paths.blogs.href()}>Blogs</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Account">
          <h2 className="footer__title">Account</h2>
          <ul>
            {session.status === 'signed-in' ? (
              <li>
                <button type="button" className="link-button" onClick={() => signOut()}>
                  Sign Out
                </button>
              </li>
            ) : (
              <>
                <li>
                  <Link to={paths.signup.href()}>Sign Up</Link>
                </li>
                <li>
                  <Link to={paths.login.href()}>Log In</Link>
                </li>
              </>
            )}
          </ul>
        </nav>
      </div>
      <p className="footer__copy">Copyright © {new Date().getFullYear()} TV Shop. All rights reserved.</p>
    </footer>
  );
}
