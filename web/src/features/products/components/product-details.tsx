import type { Product, SellerProfile } from '@tv-shop/contracts';
import { formatTk, formatPostDate } from '@/lib/format';
import { photosOf } from '../photos';
import { PhotoGallery } from './photo-gallery';
import { ProductActions } from './product-actions';
import { SellerBlock } from './seller-block';
import { StatusBadge } from './status-badge';
import { ContactPhone } from './contact-phone';

/**
 * A product's own page: its photos whole (never cropped; swiped or stepped through, a tap opens
 * one full size), every field of the listing, its seller, and the same actions a card offers.
 */
export function ProductDetails({
  product,
  seller,
  onBook,
}: {
  product: Product;
  seller: SellerProfile | null;
  onBook: (product: Product) => void;
}) {
  return (
    <article className="product-page" aria-labelledby="product-page-title" data-product-id={product._id}>
      <PhotoGallery photos={photosOf(product)} name={product.porduct_name} />
      <div className="product-page__info">
        <header className="product-page__header">
          <h1 id="product-page-title" className="product-page__title">
            {product.porduct_name}
          </h1>
          <StatusBadge sold={product.sold} />
        </header>
        <p className="product-card__prices product-page__prices">
          <span className="price-resale">Resale Price: {formatTk(product.resale_price)}</span>
          <span className="price-original">Original Price: {formatTk(product.orginal_price)}</span>
        </p>
        <ProductActions product={product} onBook={onBook} className="product-card__actions product-page__actions" />
        <p className="product-page__details">{product.details}</p>
        <dl className="product-card__facts product-page__facts">
          <dt>Brand</dt>
          <dd>{product.category_name}</dd>
          <dt>Condition</dt>
          <dd>{product.product_condition}</dd>
          <dt>Used</dt>
          <dd>{product.use_duration}</dd>
          <dt>Location</dt>
          <dd>{product.location}</dd>
          <dt>Contact</dt>
          {/* None: its seller closed their account. */}
          <dd>
            <ContactPhone product={product} />
          </dd>
          <dt>Posted</dt>
          <dd>{formatPostDate(product.post_date)}</dd>
          <dt>Status</dt>
          <dd>{product.sold ? 'Sold' : 'Available'}</dd>
        </dl>
        <SellerBlock seller={seller} />
      </div>
    </article>
  );
}
