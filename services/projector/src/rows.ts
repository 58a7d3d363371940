import type { Blog, Booking, Category, Product, ProductReport, User } from '@tv-shop/contracts';

/** Poisha in the read models, TK on the wire. */
export const toTk = (poisha: number | string) => Number(poisha) / 100;

export interface ProductRow {
  id: string;
  name: string;
  image: string;
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
}
export const toProduct = (r: ProductRow): Product => ({
  _id: r.id,
  porduct_name: r.name,
  productImage: r.image,
  details: r.details,
  location: r.location,
  resale_price: toTk(r.resale_poisha),
  orginal_price: toTk(r.original_poisha),
  use_duration: r.use_duration,
  seller: r.seller_name,
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
});

export interface ReportRow {
  product_id: string;
  by_name: string;
  reason: string;
  at: Date;
}
export const toReport = (r: ReportRow): ProductReport => ({ by_name: r.by_name, reason: r.reason, at: new Date(r.at).toISOString() });

export interface UserRow {
  id: string;
  name: string;
  email: string;
  photo_url: string;
  role: User['role'];
  verified: boolean;
  deleted: boolean;
  password_hash: string | null;
}
export const toUser = (r: UserRow): User => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  photoURL: r.photo_url,
  role: r.role,
  verified: r.verified,
});

export interface BookingRow {
  id: string;
  product_id: string;
  product_name: string;
  product_image: string;
  price_poisha: string;
  buyer_id: string;
  buyer_name: string;
  buyer_email: string;
  phone: string;
  meeting_location: string;
  paid: boolean;
  cancelled: boolean;
  cancel_reason: string | null;
  transaction_id: string | null;
  booked_at: Date;
  seller_id: string | null;
  seller_email: string;
}
export const toBooking = (r: BookingRow): Booking => ({
  _id: r.id,
  porduct_name: r.product_name,
  price: toTk(r.price_poisha),
  username: r.buyer_name,
  email: r.buyer_email,
  phone_number: r.phone,
  meeting_location: r.meeting_location,
  productImage: r.product_image,
  product_id: r.product_id,
  paid: r.paid,
  ...(r.transaction_id ? { transationId: r.transaction_id } : {}),
  status: r.paid ? 'paid' : r.cancelled ? 'cancelled' : 'open',
  ...(r.cancelled && !r.paid && r.cancel_reason ? { cancel_reason: r.cancel_reason } : {}),
  booked_at: new Date(r.booked_at).toISOString(),
  seller_email: r.seller_email,
});

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
