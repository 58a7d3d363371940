import { paths } from './paths';

/**
 * What each page needs first, for the server to name in the page's HTML (ADR 0043), so the
 * browser fetches it alongside the app's own script instead of after it has run:
 * - `modules`: the page's route modules; the build (web/vite.config.ts) turns them into the
 *   chunks they load, written to `page-preloads.json` beside index.html;
 * - `reads`: the public API reads the page starts with, the same answer for everybody (no token
 *   is sent with a preload). `:id` stands for the page's own `:id`. They must be the very URLs
 *   the page fetches (page-preloads.unit.test.ts holds the search's to `toApiQuery`), or the
 *   browser fetches twice. The gateway names them only for a URL without a query string.
 *
 * Plain data (no imports but paths), so the build can read it.
 */
export interface PagePreload {
  path: string;
  modules: string[];
  reads: string[];
}

/** All Products with nothing in its URL: `toApiQuery(BROWSE)`. */
export const BROWSE_READ = '/api/products/search?sold=false&sort=newest';

const routes = 'src/app/routes';
const dashboard = (page: string) => [`${routes}/dashboard/layout.tsx`, `${routes}/dashboard/${page}.tsx`];
const d = paths.dashboard;

export const PAGE_PRELOADS: PagePreload[] = [
  { path: paths.home.path, modules: [`${routes}/home.tsx`], reads: ['/api/advertise_products', '/api/categories'] },
  { path: paths.allProducts.path, modules: [`${routes}/all-products.tsx`], reads: [BROWSE_READ, '/api/categories'] },
  { path: paths.category.path, modules: [`${routes}/category.tsx`], reads: [`${BROWSE_READ}&category=:id`, '/api/categories'] },
  { path: paths.product.path, modules: [`${routes}/product.tsx`], reads: ['/api/product/:id'] },
  { path: paths.seller.path, modules: [`${routes}/seller.tsx`], reads: ['/api/sellers/:id'] },
  { path: paths.blogs.path, modules: [`${routes}/blogs.tsx`], reads: ['/api/blogs'] },
  { path: paths.login.path, modules: [`${routes}/login.tsx`], reads: [] },
  { path: paths.signup.path, modules: [`${routes}/signup.tsx`], reads: [] },
  { path: d.root.path, modules: dashboard('profile'), reads: [] },
  { path: d.myOrders.path, modules: dashboard('my-orders'), reads: [] },
  { path: d.payment.path, modules: dashboard('payment'), reads: [] },
  { path: d.addProduct.path, modules: dashboard('add-product'), reads: [] },
  { path: d.myProducts.path, modules: dashboard('my-products'), reads: [] },
  { path: d.myBookings.path, modules: dashboard('my-bookings'), reads: [] },
  { path: d.allSellers.path, modules: dashboard('all-sellers'), reads: [] },
  { path: d.allBuyers.path, modules: dashboard('all-buyers'), reads: [] },
  { path: d.reportedItems.path, modules: dashboard('reported-items'), reads: [] },
];
