import { CameraOutlined } from '@ant-design/icons';
import type { Product } from '@tv-shop/contracts';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { formatTk } from '@/lib/format';
import { coverThumbnail, photosOf } from '../photos';
import { ProductActions } from './product-actions';
import { StatusBadge } from './status-badge';
import { VerifiedMark } from './verified-mark';

interface ProductCardProps {
  product: Product;
  /** Opens the booking for a signed-in buyer; the page owns the modal. */
  onBook: (product: Product) => void;
}

export function ProductCard({ product, onBook }: ProductCardProps) {
  const headingId = `product-${product._id}-name`;
  const href = paths.product.href(product._id);
  const photoCount = photosOf(product).length;

  return (
    <article className="product-card" aria-labelledby={headingId} data-product-id={product._id}>
      <div className="product-card__media">
        {/* The title's link is the one in the tab order; the photo is a larger target for a pointer. */}
        <Link to={href} tabIndex={-1} aria-hidden="true">
          <img src={coverThumbnail(product)} alt={product.porduct_name} loading="lazy" />
        </Link>
        <StatusBadge sold={product.sold} />
        {photoCount > 1 ? (
          <span className="product-card__photo-count">
            <CameraOutlined aria-hidden="true" /> {photoCount} photos
          </span>
        ) : null}
      </div>
      <div className="product-card__body">
        <h3 id={headingId} className="product-card__title">
          <Link to={href}>{product.porduct_name}</Link>
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
        <ProductActions product={product} onBook={onBook} />
      </div>
    </article>
  );
}
