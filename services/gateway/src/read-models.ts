import type pg from 'pg';
import type { Blog, Booking, Category, Product, ProductSearch, ReportedProduct, SellerCard, SellerProfile, User } from '@tv-shop/contracts';
import { CatalogQueries } from '@tv-shop/catalog';
import { IdentityQueries } from '@tv-shop/identity';
import { OrdersQueries } from '@tv-shop/orders';
import { projectionPositions } from '@tv-shop/platform';

/**
 * The read models the routes use, in one object. Each query belongs to the service whose read
 * model it reads; this only forwards to them, and passes one service's answer to another's query
 * where a query needs both (reporters' names, whether a booked TV is still for sale).
 */
export class ReadModels {
  private readonly identity: IdentityQueries;
  private readonly catalog: CatalogQueries;
  private readonly orders: OrdersQueries;

  constructor(private readonly pool: pg.Pool) {
    this.identity = new IdentityQueries(pool);
    this.catalog = new CatalogQueries(pool);
    this.orders = new OrdersQueries(pool);
  }

  allProducts = (): Promise<Product[]> => this.catalog.allProducts();
  productsOfCategory = (categoryId: string): Promise<Product[]> => this.catalog.productsOfCategory(categoryId);
  advertisedProducts = (): Promise<Product[]> => this.catalog.advertisedProducts();
  /** Reported products with who reported each and why, oldest report first. */
  reportedProducts = (): Promise<ReportedProduct[]> => this.catalog.reportedProducts((ids) => this.identity.namesOf(ids));
  sellerProducts = (email: string): Promise<Product[]> => this.catalog.sellerProducts(email);
  product = (id: string): Promise<(Product & { sellerId: string }) | null> => this.catalog.product(id);
  search = (query: ProductSearch) => this.catalog.search(query);
  /** A seller's public profile: identity's card and join date, catalog's count of what they sell. */
  async sellerProfile(id: string): Promise<SellerProfile | null> {
    const seller = await this.identity.sellerSince(id);
    if (!seller) return null;
    return {
      _id: seller._id,
      name: seller.name,
      verified: seller.verified,
      memberSince: seller.memberSince,
      availableCount: await this.catalog.availableCount(id),
    };
  }
  availableOf = (sellerId: string): Promise<Product[]> => this.catalog.availableOf(sellerId);
  categories = (): Promise<Category[]> => this.catalog.categories();
  categoryExists = (id: string): Promise<boolean> => this.catalog.categoryExists(id);
  blogs = (): Promise<Blog[]> => this.catalog.blogs();

  userById = (id: string): Promise<User | null> => this.identity.userById(id);
  userByEmail = (email: string): Promise<User | null> => this.identity.userByEmail(email);
  /** The account with this email if the password matches (identity's check, timed the same either way); else null. */
  verifyPassword = (email: string, password: string): Promise<User | null> => this.identity.verifyPassword(email, password);
  usersWithRole = (role: 'Buyer' | 'Seller'): Promise<User[]> => this.identity.usersWithRole(role);
  /** The public card of the seller with this id; null when there is no such active seller. */
  sellerCard = (id: string): Promise<SellerCard | null> => this.identity.sellerCard(id);
  /** The one active seller with this name; 404 or 409 otherwise (names are not unique, ADR 0022). */
  sellerNamed = (name: string): Promise<SellerCard> => this.identity.sellerNamed(name);

  /** A buyer's whole order history, cancelled bookings included (with their reason), newest first. */
  bookingsOf = (email: string): Promise<Booking[]> => this.orders.bookingsOf(email);
  /** Every booking of a seller's products, newest first. */
  bookingsOfSeller = (sellerId: string): Promise<Booking[]> => this.orders.bookingsOfSeller(sellerId);
  /**
   * The booking the spec's `{ price }` payment call means: the buyer's one open booking at that
   * price (TK) whose TV is still for sale; 422 on `bookingId` when there is none or several.
   */
  bookingToPayAt = (buyerId: string, price: unknown): Promise<string> =>
    this.orders.bookingToPayAt(buyerId, price, (ids) => this.catalog.unsold(ids));
  booking = (id: string): Promise<(Booking & { buyerId: string }) | null> => this.orders.booking(id);

  /** Every picture address a read model keeps: products', account photos, bookings' (the upload sweeper keeps these). */
  imageUrls = async (): Promise<string[]> =>
    (await Promise.all([this.catalog.imageUrls(), this.identity.imageUrls(), this.orders.imageUrls()])).flat();

  /** Each read-model projection's checkpoint (policies keep theirs in the same table). */
  projectionPositions = (): Promise<Record<string, number>> => projectionPositions(this.pool);
}
