import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { TvIllustration } from './tv-illustration';

export function WelcomeBanner() {
  return (
    <section className="welcome-banner" aria-labelledby="welcome-heading">
      <div className="welcome-banner__text">
        <p className="welcome-banner__since">Providing Services since 2018</p>
        <h1 id="welcome-heading">Welcome to TV Shop</h1>
        <p>Buy and sell used TV sets near you. Book a set, meet the seller, pay by card, and enjoy the big screen for less.</p>
        <Link className="button-link" to={paths.allProducts.href()}>
          Browse All Products
        </Link>
      </div>
      <TvIllustration className="welcome-banner__art" />
    </section>
  );
}
