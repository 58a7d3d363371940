import type { User } from '@tv-shop/contracts';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { CheckCircleIcon, UserIcon } from '@/components/ui/icons';
import { useBrokenImage } from '@/components/ui/use-broken-image';

/**
 * The dashboard's welcome: role, name, email and photo of whoever is signed in, and for a seller
 * whether the admin has verified them (it changes live: the session follows the account's row).
 * Plain markup in antd's card look (styles.css): the dashboard's first page paints without antd
 * (ADR 0043).
 */
export function ProfileCard({ user }: { user: User }) {
  const { broken, onError } = useBrokenImage(user.photoURL || undefined);
  return (
    <section className="profile-card" aria-labelledby="profile-card-name">
      <div className="profile-card__head">
        <span className="profile-card__avatar">
          {user.photoURL && !broken ? <img src={user.photoURL} alt={user.name} width={96} height={96} onError={onError} /> : <UserIcon />}
        </span>
        <div>
          <p className="profile-card__kicker">Welcome, {user.role}</p>
          <h1 id="profile-card-name" className="profile-card__name">
            {user.name}
          </h1>
        </div>
      </div>
      <dl className="profile-card__facts">
        <div>
          <dt>Role</dt>
          <dd>{user.role}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{user.name}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
        {user.role.toLowerCase() === 'seller' ? (
          <div>
            <dt>Verification</dt>
            <dd className="profile-card__verification">
              {user.verified ? (
                <>
                  <strong>Verified</strong> <CheckCircleIcon className="verified-mark" aria-hidden="true" />
                  <span className="profile-card__hint">Buyers see the mark beside your name.</span>
                </>
              ) : (
                <>
                  <strong>Pending</strong>
                  <span className="profile-card__hint">
                    The admin has not verified your account yet. Verified sellers get a mark beside their name.
                  </span>
                </>
              )}
            </dd>
          </div>
        ) : null}
      </dl>
      <NextSteps role={user.role} />
    </section>
  );
}

/**
 * Where a seller or a buyer goes from here, on the first screen: a new seller otherwise finds Add
 * Product only in the dashboard's menu (behind its button on a phone).
 */
function NextSteps({ role }: { role: User['role'] }) {
  const [main, other] =
    role.toLowerCase() === 'seller'
      ? [
          { to: paths.dashboard.addProduct.href(), text: 'Add a TV for sale' },
          { to: paths.dashboard.myProducts.href(), text: 'My Products' },
        ]
      : role.toLowerCase() === 'buyer'
        ? [
            { to: paths.allProducts.href(), text: 'Browse the TVs for sale' },
            { to: paths.dashboard.myOrders.href(), text: 'My Orders' },
          ]
        : [];
  if (!main || !other) return null;
  return (
    <p className="profile-card__next">
      <Link className="button-link" to={main.to}>
        {main.text}
      </Link>
      <Link to={other.to}>{other.text}</Link>
    </p>
  );
}
