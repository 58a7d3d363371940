import { Button, Tag } from 'antd';
import type { Product } from '@tv-shop/contracts';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { formatTk } from '@/lib/format';
import { hasRole, useSessionUser } from '@/lib/session';
import { ReportButton } from './report-button';
import { StatusBadge } from './status-badge';
import { VerifiedMark } from './verified-mark';

interface ProductCardProps {
  product: Product;
  /** Opens the booking for a signed-in buyer; the page owns the modal. */
  onBook: (product: Product) => void;
}

export function ProductCard({ product, onBook }: ProductCardProps) {
  const user = useSessionUser();
  const isBuyer = hasRole(user, 'Buyer');
  const navigate = useNavigate();
  const location = useLocation();
  const headingId = `product-${product._id}-name`;

  const book = () => {
    if (!user) void navigate(paths.login.href(), { state: { from: location } });
    else onBook(product);
  };

  return (
    <article className="product-card" aria-labelledby={headingId} data-product-id={product._id}>
      <div className="product-card__media">
        <img src={product.productImage} alt={product.porduct_name} loading="lazy" />
        <StatusBadge sold={product.sold} />
      </div>
      <div className="product-card__body">
        <h3 id={headingId} className="product-card__title">
          {product.porduct_name}
        </h3>
        <p className="product-card__prices">
          <span className="price-resale">Resale Price: {formatTk(product.resale_price)}</span>
          <span className="price-original">Original Price: {formatTk(product.orginal_price)}</span>
        </p>
        <p className="product-card__details">{product.details}</p>
        <dl className="product-card__facts">
          <dt>Location</dt>
          <dd>{product.location}</dd>
          <dt>Seller</dt>
          <dd className="product-card__seller">
            {product.seller} {product.sellerVerified ? <VerifiedMark /> : null}
          </dd>
          <dt>Contact</dt>
          <dd>{product.phone_number}</dd>
          <dt>Posted</dt>
          <dd>{product.post_date}</dd>
          <dt>Used</dt>
          <dd>{product.use_duration}</dd>
          <dt>Condition</dt>
          <dd>{product.product_condition}</dd>
        </dl>
        <div className="product-card__actions">
          {!user || isBuyer ? (
            <Button type="primary" onClick={book} disabled={product.sold}>
              Book Now
            </Button>
          ) : null}
          {product.reported ? (
            <Tag color="orange" className="reported-label">
              Reported
            </Tag>
          ) : isBuyer ? (
            <ReportButton product={product} />
          ) : null}
        </div>
      </div>
    </article>
  );
}
