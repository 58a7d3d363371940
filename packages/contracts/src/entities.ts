/**
 * Read-model rows as the spec's client reads them (section 3). Field spellings such as
 * `porduct_name`, `orginal_price` and `transationId` are the spec's own and are kept.
 * Prices on the wire are TK (a number with at most two decimals); events keep poisha.
 */
export const ROLES = ['Buyer', 'Seller', 'Admin'] as const;
export type Role = (typeof ROLES)[number];

export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const USE_DURATIONS = [
  '1 year',
  '2 years',
  '3 years',
  '4 years',
  '5 years',
  '6 years',
  '7 years',
  '8 years',
  '9 years',
  '10 years',
] as const;
export type UseDuration = (typeof USE_DURATIONS)[number];

/** How many photos one listing holds at most (the form says so; catalog's decider refuses more). */
export const MAX_LISTING_PHOTOS = 8;

/** An id as the shop gives them (UUIDs, category slugs): what a route, a cursor or a stream may name. */
export const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/** An image this shop stored (`POST /images`): its id is its content's hash and type. Only these are thumbnails. */
export const UPLOADED_IMAGE = /^\/api\/images\/[0-9a-f]{40}\.(?:png|jpg|gif|webp)$/;

export interface User {
  _id: string;
  name: string;
  email: string;
  photoURL: string;
  role: Role;
  verified: boolean;
}

/** What a visitor may see of a seller (`GET /users_by_seller`): no email. */
export interface SellerCard {
  _id: string;
  name: string;
  photoURL: string;
  verified: boolean;
}

export interface Product {
  _id: string;
  porduct_name: string;
  /** The cover: the first of `productImages`, the one photo the spec's client shows. */
  productImage: string;
  /** Every photo, in the seller's order. A listing from before there were several holds `[productImage]`. */
  productImages: string[];
  /**
   * A small version of each photo, in the same order, for cards and lists. A photo that has none
   * (an address from elsewhere, a listing from before thumbnails) stands for itself.
   */
  productThumbnails: string[];
  details: string;
  location: string;
  resale_price: number;
  orginal_price: number;
  use_duration: string;
  seller: string;
  /** The seller's account id: their public page is `/sellers/{sellerId}`, and a page follows their listings by it. */
  sellerId: string;
  sellerEmail: string;
  sellerVerified: boolean;
  post_date: string;
  phone_number: string;
  product_condition: Condition;
  category_id: string;
  category_name: string;
  sold: boolean;
  /** Sold through a paid booking here: final, the seller cannot make it available again. */
  paid_sale: boolean;
  reported: boolean;
  advertised: boolean;
  /** Where in the log it was listed: a later listing has a larger one (newest first sorts by it). */
  listedAt: number;
  /**
   * How many times its seller has edited it. An edit sends the count its form was filled from, and
   * is refused if the listing was edited since (ADR 0061).
   */
  edits: number;
}

/** One buyer's report of a listing, as the admin sees it. */
export interface ProductReport {
  by_name: string;
  reason: string;
  at: string;
}
/** `GET /reported_products`: the product with who reported it and why (admin only). */
export type ReportedProduct = Product & {
  reports: ProductReport[];
  /** Every report it ever had, dismissed ones included: what a dismissal names as seen (it never goes back). */
  reports_taken: number;
};

export const BOOKING_STATUSES = ['open', 'paid', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface Booking {
  _id: string;
  porduct_name: string;
  price: number;
  username: string;
  email: string;
  phone_number: string;
  meeting_location: string;
  productImage: string;
  /** A small copy of `productImage` for lists (ours): `productImage` itself when the listing had none. */
  productThumbnail: string;
  product_id: string;
  paid: boolean;
  transationId?: string;
  /** open (waiting for payment), paid, or cancelled (kept in the history with its reason). */
  status: BookingStatus;
  /** Why it was cancelled, in words ("sold to another buyer", "listing removed"). */
  cancel_reason?: string;
  /** A cancelled placing kept as a row of its own when the buyer booked the TV again (ADR 0063). */
  earlier_placing?: true;
  /** TK given back for payments of this booking that bought nothing (made after it was cancelled, or for an earlier price); kept by that placing's row when the TV is booked again. */
  refunded?: number;
  /** ISO time the booking was placed. */
  booked_at: string;
  /** The seller of the booked TV, whose My Bookings shows it. */
  seller_email: string;
  /**
   * Whom the buyer calls to meet, and on what number: the seller's name and the listing's phone as
   * they are now (ours). Absent for a TV whose listing the shop never saw.
   */
  seller_name?: string;
  seller_phone?: string;
}

export interface Category {
  _id: string;
  category_name: string;
  name: string;
  bgColor: string;
  color: string;
}

export interface Blog {
  _id: string;
  ques: string;
  para1: string;
  para2?: string;
  para3?: string;
  para4?: string;
  para5?: string;
}

export interface PaymentRecord {
  username: string;
  price: number;
  email: string;
  bookingId: string;
  transationId: string;
  product_id: string;
}
