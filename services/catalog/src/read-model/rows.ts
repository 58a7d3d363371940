import type { Blog, Category, EditableListing, Product, ProductReport } from '@tv-shop/contracts';

/** Who sold a listing whose seller closed their account: what remains of them on it. */
export const FORMER_SELLER = 'A former seller';

/** Poisha in the read models, TK on the wire. */
export const toTk = (poisha: number | string) => Number(poisha) / 100;

/** A product row's columns for reads (not the search vector, which only the database needs). */
export const PRODUCT_COLUMNS =
  'id, name, image, images, thumbnails, details, location, resale_poisha, original_poisha, use_duration, condition, phone, category_id, category_name, ' +
  'seller_id, seller_name, seller_email, seller_verified, post_date, sold, paid_sale, reported, advertised, listed_at, edits';

/** A row of `rm_catalog.products`. */
export interface ProductRow {
  id: string;
  name: string;
  image: string;
  images: string[];
  thumbnails: string[];
  details: string;
  location: string;
  resale_poisha: string;
  original_poisha: string;
  use_duration: string;
  condition: Product['product_condition'];
  phone: string;
  category_id: string;
  category_name: string;
  seller_id: string;
  seller_name: string;
  seller_email: string;
  seller_verified: boolean;
  post_date: string;
  sold: boolean;
  paid_sale: boolean;
  reported: boolean;
  advertised: boolean;
  listed_at: string;
  edits: number;
}
export const toProduct = (r: ProductRow): Product => ({
  _id: r.id,
  porduct_name: r.name,
  productImage: r.image,
  productImages: r.images,
  // A photo without a thumbnail of its own is shown as it is.
  productThumbnails: r.images.map((image, i) => r.thumbnails[i] ?? image),
  details: r.details,
  location: r.location,
  resale_price: toTk(r.resale_poisha),
  orginal_price: toTk(r.original_poisha),
  use_duration: r.use_duration,
  seller: r.seller_name,
  sellerId: r.seller_id,
  sellerEmail: r.seller_email,
  sellerVerified: r.seller_verified,
  post_date: r.post_date,
  phone_number: r.phone,
  product_condition: r.condition,
  category_id: r.category_id,
  category_name: r.category_name,
  sold: r.sold,
  paid_sale: r.paid_sale,
  reported: r.reported,
  advertised: r.advertised,
  listedAt: Number(r.listed_at),
  edits: r.edits,
});

/** A row of `rm_catalog.reports`: one per product and reporter. */
export interface ReportRow {
  product_id: string;
  by_name: string;
  reason: string;
  at: Date;
}
export const toReport = (r: ReportRow): ProductReport => ({ by_name: r.by_name, reason: r.reason, at: new Date(r.at).toISOString() });

export const toCategory = (r: { id: string; category_name: string; name: string; bg_color: string; color: string }): Category => ({
  _id: r.id,
  category_name: r.category_name,
  name: r.name,
  bgColor: r.bg_color,
  color: r.color,
});
export const toBlog = (r: { id: string; ques: string; paragraphs: string[] }): Blog => {
  const blog: Blog = { _id: r.id, ques: r.ques, para1: r.paragraphs[0] ?? '' };
  r.paragraphs.slice(1, 5).forEach((p, i) => ((blog as unknown as Record<string, string>)[`para${i + 2}`] = p));
  return blog;
};

/** What a listing's search vector is made of (the generated `search` column): its words for `search_words`. */
export const searchText = (r: Pick<ProductRow, 'name' | 'details' | 'location' | 'category_name'>) =>
  `${r.name} ${r.details} ${r.location} ${r.category_name}`;

/** The column of `products` each field a seller may edit is kept in. */
const EDITED_COLUMN: Record<keyof EditableListing, keyof ProductRow> = {
  name: 'name',
  imageUrl: 'image',
  imageUrls: 'images',
  thumbnailUrls: 'thumbnails',
  details: 'details',
  location: 'location',
  resalePricePoisha: 'resale_poisha',
  originalPricePoisha: 'original_poisha',
  useDuration: 'use_duration',
  condition: 'condition',
  phone: 'phone',
  categoryId: 'category_id',
  categoryName: 'category_name',
};

/** The columns a seller's edit (ProductEdited) sets, with their new values. */
export const editedColumns = (changes: Partial<EditableListing>): [column: keyof ProductRow, value: unknown][] =>
  Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => [EDITED_COLUMN[field as keyof EditableListing], value]);
