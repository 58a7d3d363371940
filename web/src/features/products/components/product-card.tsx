import type { Product } from '@tv-shop/contracts';
import { Link } from 'react-router-dom';
import { CameraIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { formatTk, formatPostDate } from '@/lib/format';
import { CARD_PHOTO, cardPhoto, photosOf, type ProductPhoto } from '../photos';
import { useBrokenImage } from '@/components/ui/use-broken-image';
import { ContactPhone } from './contact-phone';
import { MissingPhoto } from './missing-photo';
import { ProductActions } from './product-actions';
import { StatusBadge } from './status-badge';
import { VerifiedMark } from './verified-mark';

interface ProductCardProps {
  product: Product;
  /** The first card in view when the page opens: its photo is fetched at once, not lazily. */
  priority?: boolean;
  /** Opens the booking for a signed-in buyer; the page owns the modal. */
  onBook: (product: Product) => void;
}

export function ProductCard({ product, onBook, priority = false }: ProductCardProps) {
  const headingId = `product-${product._id}-name`;
  const href = paths.product.href(product._id);
  const photos = photosOf(product);
  const photoCount = photos.length;

  return (
    <article className="product-card" aria-labelledby={headingId} data-product-id={product._id}>
      <div className="product-card__media">
        {/* The title's link is the one in the tab order; the photo is a larger target for a pointer. */}
        <Link to={href} tabIndex={-1} aria-hidden="true">
          <CardPhoto photo={photos[0]!} alt={product.porduct_name} priority={priority} />
        </Link>
        <StatusBadge sold={product.sold} />
        {photoCount > 1 ? (
          <span className="product-card__photo-count">
            <CameraIcon /> {photoCount} photos
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
          <dd>
            <ContactPhone product={product} />
          </dd>
          <dt>Posted</dt>
          <dd>{formatPostDate(product.post_date)}</dd>
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

/**
 * The cover in the card's 16:10 box (sized by CSS, so nothing moves when it arrives): the small
 * copy, or the photo itself where the screen needs more pixels than the copy has. Lazy below the
 * fold; the first card's is fetched at once, as it is what the page's first paint shows.
 */
function CardPhoto({ photo, alt, priority }: { photo: ProductPhoto; alt: string; priority: boolean }) {
  const { src, srcSet, sizes } = cardPhoto(photo);
  const { broken, onError } = useBrokenImage(src);
  if (broken) return <MissingPhoto alt={alt} />;
  return (
    <img
      onError={onError}
      src={src}
      srcSet={srcSet}
      sizes={sizes}
      alt={alt}
      width={CARD_PHOTO.width}
      height={CARD_PHOTO.height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
    />
  );
}
