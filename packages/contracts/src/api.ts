import { z } from 'zod';
import { CONDITIONS, MAX_LISTING_PHOTOS, UPLOADED_IMAGE, USE_DURATIONS } from './entities';
import { GROUPED_DIGITS, priceText } from './digits';
import { decimalNumber, wholeNumber } from './numbers';
import type { RemovedListing } from './removed';

/** Request bodies of the API, validated on the server and typed in the browser. */

/** Something a person can read: a letter, digit, punctuation or symbol, not only invisible marks (U+200B). */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const trimmed = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'is required', abort: true })
    .max(max)
    .refine((s) => VISIBLE.test(s), 'is required');
const email = z.string().trim().toLowerCase().max(254).pipe(z.email('must be an email address'));
/**
 * A price's text: plain or grouped whole TK (`GROUPED_DIGITS`), with at most two decimals. Any
 * number of digits: one too large is a number all the same, refused by the range with its maximum.
 */
const PRICE_TEXT = new RegExp(String.raw`^-?(?:\d+|${GROUPED_DIGITS})(?:\.\d{1,2})?$`);
/**
 * TK with at most two decimals: a JSON number, or a decimal string as the spec's forms may send
 * it ("25000", "1999.50", "38,000"). Positive and finite; null, "", [], booleans, "0x10", "1e3"
 * are refused, never coerced, and "-5" is refused as below the minimum (never turned into 0).
 */
export const tk = z
  .union([z.number(), z.string().trim().regex(PRICE_TEXT, 'must be a number, like 25000, 38,000 or 1999.50')], {
    error: 'must be a number',
  })
  .transform((v) => (typeof v === 'string' ? priceText(v) : v))
  // Digits past a double's range read as Infinity: above the maximum, which says so.
  .refine((n) => !Number.isNaN(n), 'must be a number')
  .refine((n) => n >= 0.01, 'must be at least 0.01 TK')
  .refine((n) => n <= 10_000_000, 'must be at most 10,000,000 TK')
  // A whole number of poisha (1 TK = 100 poisha): anything finer would be rounded to another price.
  .refine((n) => !Number.isFinite(n) || Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'has more than two decimals');
/**
 * A phone number as people write it: digits with an optional leading +, spaces, dashes, dots or
 * brackets between them ("01712-345678", "+880 1712 345678"), 6 to 15 digits in all. Letters are
 * refused: the buyer must be able to call it.
 */
export const phone = z
  .string({ error: 'must be a phone number' })
  .trim()
  .min(1, 'is required')
  .max(30, 'must be at most 30 characters')
  .regex(/^\+?[\d\s().-]+$/, { message: 'must be made of digits, like 01712-345678 or +880 1712 345678', abort: true })
  .refine((s) => {
    const digits = s.replace(/\D/g, '').length;
    return digits >= 6 && digits <= 15;
  }, 'must have 6 to 15 digits');
const url = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => UPLOADED_IMAGE.test(s) || /^https?:\/\//.test(s), 'must be an http(s) URL or an uploaded image');
/** A thumbnail is always one this shop made (`POST /images` answers it beside the photo). */
const uploaded = z.string().trim().regex(UPLOADED_IMAGE, 'must be an image uploaded here');

export const SignupBody = z.object({
  name: trimmed(80),
  email,
  password: z.string().min(6, 'must be at least 6 characters').max(200),
  role: z.enum(['Buyer', 'Seller'], { error: 'must be Buyer or Seller' }),
  photoURL: url.optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const LoginBody = z.object({ email, password: z.string().min(1, 'is required').max(200) });
export type LoginBody = z.infer<typeof LoginBody>;

export const GoogleLoginBody = z.object({ idToken: z.string().min(10).max(8192) });

/** `PUT /api/account/password`: the caller's own password, proven by the current one (ADR 0060). */
export const ChangePasswordBody = z
  .object({
    current_password: z.string().min(1, 'is required').max(200),
    new_password: SignupBody.shape.password,
  })
  .refine((b) => b.new_password !== b.current_password, { path: ['new_password'], message: 'must differ from the current password' });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/**
 * `PUT /users?email=`: the caller's own name and photo; a role is chosen once. Every member is
 * optional, so a member it does not take is refused (400 naming it), not dropped: `photoUrl` for
 * `photoURL` would otherwise answer 200 and change nothing.
 */
export const UpsertUserBody = z
  .object({
    name: trimmed(80).optional(),
    email: email.optional(),
    role: z.string().optional(),
    photoURL: url.optional(),
  })
  .strict();
export type UpsertUserBody = z.infer<typeof UpsertUserBody>;

const photoList = (photo: z.ZodType<string>) =>
  z
    .array(photo, { error: 'must be a list of photo addresses' })
    .min(1, 'must hold at least one photo')
    .max(MAX_LISTING_PHOTOS, `must hold at most ${MAX_LISTING_PHOTOS} photos`);

/**
 * `productImage` is the cover and the only photo the spec's client sends. `productImages` (ours)
 * is every photo in order, starting with that cover; `productThumbnails`, when sent, is the
 * `thumbnailUrl` of each, in the same order (`POST /images` answers both).
 */
export const AddProductBody = z
  .object({
    porduct_name: trimmed(120),
    productImage: url,
    productImages: photoList(url).optional(),
    productThumbnails: photoList(uploaded).optional(),
    details: trimmed(2000),
    location: trimmed(120),
    resale_price: tk,
    orginal_price: tk,
    use_duration: z.enum(USE_DURATIONS, { error: "must be '1 year' to '10 years'" }),
    phone_number: phone,
    product_condition: z.enum(CONDITIONS, { error: 'must be Excellent, Good or Fair' }),
    category_id: trimmed(64),
    // What the spec's client also sends; the server takes these from the account or catalog.
    category_name: z.string().optional(),
    seller: z.string().optional(),
    sellerEmail: z.string().optional(),
    post_date: z.string().optional(),
    sold: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    const count = body.productImages?.length ?? 1;
    if (body.productImages && body.productImages[0] !== body.productImage)
      ctx.addIssue({ code: 'custom', path: ['productImages'], message: 'must start with productImage, the cover' });
    if (body.productThumbnails && body.productThumbnails.length !== count)
      ctx.addIssue({ code: 'custom', path: ['productThumbnails'], message: `must hold one thumbnail for each of the ${count} photos` });
  });
export type AddProductBody = z.infer<typeof AddProductBody>;

/**
 * What an edit (`PUT /api/product/{id}`) sends beside Add Product's body: `edits`, the listing's
 * count of edits as the form was filled from it. When given and the listing was edited since, the
 * edit is refused (409 naming `edits`) instead of overwriting what it never showed (ADR 0061).
 */
export const EditProductBody = z.object({
  edits: z.number({ error: 'must be a number' }).int().min(0).max(1_000_000).optional(),
});
export type EditProductBody = z.infer<typeof EditProductBody>;

export const PlaceBookingBody = z.object({
  product_id: trimmed(64),
  // How the seller reaches the buyer: checked as a listing's phone is.
  phone_number: phone,
  meeting_location: trimmed(200),
  // The listing's `edits` as the buyer saw it (our web app sends it): the booking is refused (409
  // naming `edits`) when the seller changed its terms since (not for photos only put in another
  // order, ADR 0073), rather than booked at terms not shown.
  edits: z.number({ error: 'must be a number' }).int().min(0).max(1_000_000).optional(),
  // Sent by the spec's client and ignored: price and names come from the server's own data.
  porduct_name: z.string().optional(),
  price: z.unknown().optional(),
  username: z.string().optional(),
  email: z.string().optional(),
  productImage: z.string().optional(),
});
export type PlaceBookingBody = z.infer<typeof PlaceBookingBody>;

/**
 * Our web app sends `bookingId`; the spec's client sends only `price`. The charge always comes
 * from a booking's own price: `price` alone is taken only when it names exactly one of the
 * caller's open bookings.
 */
export const CreatePaymentIntentBody = z.object({
  bookingId: trimmed(64).optional(),
  price: z.unknown().optional(),
});
export type CreatePaymentIntentBody = z.infer<typeof CreatePaymentIntentBody>;

export const RecordPaymentBody = z.object({
  bookingId: trimmed(64),
  transationId: trimmed(200),
  username: z.string().optional(),
  price: z.unknown().optional(),
  email: z.string().optional(),
  product_id: z.string().optional(),
});
export type RecordPaymentBody = z.infer<typeof RecordPaymentBody>;

/**
 * `PUT /product/dismiss_reports/{id}`: optionally, how many reports the admin was shown
 * (`reports`), or better the listing's `reports_taken` as shown, which also tells a report made
 * after another admin's dismissal: the dismissal is refused (409 on `reports`) when one came since.
 */
export const DismissReportsBody = z.object({
  reports: z.number({ error: 'must be a number' }).int().min(0).max(100_000).optional(),
  reports_taken: z.number({ error: 'must be a number' }).int().min(0).max(100_000_000).optional(),
});
export type DismissReportsBody = z.infer<typeof DismissReportsBody>;

/**
 * `DELETE /product/{id}` (admin): optionally, what the admin was shown as they chose to remove it.
 * `reported`: removed for its reports (refused with 409 when they were dismissed meanwhile);
 * `paid_sale`: whether a buyer had paid, as the question said (refused with 409 when one paid since).
 */
export const RemoveProductBody = z.object({
  reported: z.boolean({ error: 'must be true or false' }).optional(),
  paid_sale: z.boolean({ error: 'must be true or false' }).optional(),
});
export type RemoveProductBody = z.infer<typeof RemoveProductBody>;

/** `PUT /product/add_reported/{id}`: an optional reason (the spec's client sends no body). */
export const ReportProductBody = z.object({ reason: z.string().trim().max(500, 'must be at most 500 characters').default('') });
export type ReportProductBody = z.infer<typeof ReportProductBody>;

export const SandboxConfirmBody = z.object({
  clientSecret: trimmed(200),
  card: z.object({
    number: z.string().trim().min(1, 'is required').max(30),
    exp_month: wholeNumber('must be 1-12').pipe(z.number().int('must be 1-12').min(1, 'must be 1-12').max(12, 'must be 1-12')),
    exp_year: wholeNumber('must be a year, like 2030').pipe(
      z.number().int('must be a year, like 2030').min(2000, 'must be a year, like 2030').max(2100, 'must be a year, like 2030'),
    ),
    cvc: z
      .string()
      .trim()
      .regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  }),
  billing_details: z.object({ name: z.string().max(200).optional(), email: z.string().max(254).optional() }).optional(),
});
export type SandboxConfirmBody = z.infer<typeof SandboxConfirmBody>;

/** Answers. Every write answers `acknowledged` and the log position its read models reached. */
export interface WriteAnswer {
  acknowledged: true;
  position: number;
  insertedId?: string;
  modifiedCount?: number;
}
/** The role checks of spec section 3 (`GET /users_admin|users_buyer|users_seller/{email}`). */
export interface AdminCheckAnswer {
  isAdmin: boolean;
}
export interface BuyerCheckAnswer {
  isBuyer: boolean;
}
export interface SellerCheckAnswer {
  isSeller: boolean;
}
/** The image host's answer (`POST /images`), as the spec's client reads it. */
export interface ImageUploadAnswer {
  success: boolean;
  /** `url`: the photo (longest side at most 2,560 px); `thumbnailUrl` (ours): a small copy for cards. */
  data: { url: string; thumbnailUrl?: string };
}
export interface AuthAnswer {
  token: string;
  user: import('./entities').User;
}
/** A password changed: every other session ended, and this one goes on with a new token. */
export interface PasswordChangedAnswer extends WriteAnswer {
  /**
   * This session's new token; null (with status 202) when the change is stored but the server's
   * read models had not reached it in time: no token would work yet, and this session ends with
   * the others; sign in with the new password.
   */
  token: string | null;
}
export interface PaymentIntentAnswer {
  clientSecret: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  provider: 'sandbox' | 'stripe';
  publishableKey?: string;
}
export type SandboxConfirmAnswer = {
  paymentIntent: {
    id: string;
    status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
    amount: number;
    currency: string;
  };
  error?: { code: string; decline_code?: string; message: string; type: 'card_error' };
};
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  field?: string;
  errors?: { field: string; message: string }[];
  /** A 410 for a listing taken off the shop (`GET /api/product/{id}`): why, and its category. */
  removed?: RemovedListing;
}

/**
 * GET /api/health: `status` (200 `ok`, 503 `degraded` with `Retry-After`) for anyone, with a short
 * `reason` when degraded (`database unreachable`, `policy catalog stalled`). The rest is answered
 * only to a signed-in admin (and on the internal metrics listener's /health, ADR 0037): it maps
 * the system, which a visitor has no need to see.
 */
export interface Health {
  status: 'ok' | 'degraded';
  /** Only when degraded. For the admin it also says where the stalled one stands and for how long. */
  reason?: string;
  /** Admin only: whether the database answered, and whether it is the embedded one. */
  database?: { ok: boolean; mode: 'embedded' | 'external' };
  /** Admin only: the position of the last event in the log. */
  head?: number;
  /** Admin only: each read-model projection's position and how many events it is behind the head. */
  projections?: { name: string; position: number; lag: number }[];
}
export interface PublicConfig {
  stripePublishableKey: string | null;
  googleClientId: string | null;
}

/** Search sorts: newest first (the default), cheapest first, dearest first. */
export const SEARCH_SORTS = ['newest', 'price_asc', 'price_desc'] as const;
const money = decimalNumber().pipe(z.number().finite().min(0, 'must be 0 or more').max(100_000_000, 'is too large'));

/**
 * `GET /api/products/search`: the query string. `q` matches words of the name, details, location
 * and brand (a misspelt brand still finds it; its first 8 different words count); `sold` is
 * `false` (the default: what can be bought), `true`, or `any`; `cursor` is the opaque
 * `nextCursor` of the previous page. A parameter it does not take is refused (400 naming it)
 * rather than ignored: `?brand=` would otherwise answer every brand.
 */
export const SEARCH_MAX_WORDS = 8;
export const ProductSearchQuery = z
  .object({
    q: z.string().trim().max(200, 'must be at most 200 characters').optional(),
    category: z.string().trim().max(100).optional(),
    condition: z.enum(CONDITIONS).optional(),
    location: z.string().trim().max(100, 'must be at most 100 characters').optional(),
    minPrice: money.optional(),
    maxPrice: money.optional(),
    sold: z.enum(['false', 'true', 'any']).default('false'),
    sort: z.enum(SEARCH_SORTS).default('newest'),
    limit: wholeNumber()
      .pipe(z.number().int('must be a whole number').min(1, 'must be at least 1').max(60, 'must be at most 60'))
      .default(24),
    cursor: z.string().max(200).optional(),
  })
  .strict()
  .refine((v) => v.minPrice === undefined || v.maxPrice === undefined || v.minPrice <= v.maxPrice, {
    message: 'must not be more than maxPrice',
    path: ['minPrice'],
  });
export type ProductSearch = z.infer<typeof ProductSearchQuery>;

/** Past this many matches a search counts no further: `total` is then "at least" (`totalCapped`). */
export const SEARCH_COUNT_CAP = 1000;

/** One page of a search: the products, where the next page starts (null: no more), how many match in all. */
export interface ProductSearchAnswer {
  items: import('./entities').Product[];
  nextCursor: string | null;
  /** How many match, counted up to SEARCH_COUNT_CAP. */
  total: number;
  /** True when more than `total` match ("1,000+ TVs"). */
  totalCapped: boolean;
  /** The log position the catalog had reached when the page was read (live updates after it). */
  position: number;
}

/** A seller as a product page and the seller page show them. */
export interface SellerProfile {
  _id: string;
  name: string;
  verified: boolean;
  /** ISO date of the account's creation. */
  memberSince: string;
  /** Their listings that can still be bought. */
  availableCount: number;
}

/** `GET /api/product/{id}`: the product and its seller. */
export interface ProductPageAnswer {
  product: import('./entities').Product;
  seller: SellerProfile | null;
}

/** `GET /api/sellers/{id}`: the seller and their available listings, newest first. */
export interface SellerPageAnswer {
  seller: SellerProfile;
  listings: import('./entities').Product[];
}
