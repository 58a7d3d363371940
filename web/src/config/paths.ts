/**
 * Every page of the app, defined once: the router reads `path`, links call `href`, and each
 * page sets `{title} -- TV Shop` from here.
 */
export const paths = {
  home: { path: '/', href: () => '/', title: 'Home' },
  allProducts: { path: '/all_products', href: () => '/all_products', title: 'All Products' },
  blogs: { path: '/blogs', href: () => '/blogs', title: 'Blogs' },
  login: { path: '/login', href: () => '/login', title: 'Login' },
  signup: { path: '/signup', href: () => '/signup', title: 'Sign Up' },
  category: {
    path: '/catagories/:id',
    href: (id: string) => `/catagories/${encodeURIComponent(id)}`,
    title: 'Category',
  },
  product: {
    path: '/products/:id',
    href: (id: string) => `/products/${encodeURIComponent(id)}`,
    title: 'Product',
  },
  seller: {
    path: '/sellers/:id',
    href: (id: string) => `/sellers/${encodeURIComponent(id)}`,
    title: 'Seller',
  },
  dashboard: {
    root: { path: '/dashboard', href: () => '/dashboard', title: 'Dashboard' },
    myOrders: { path: '/dashboard/my_order', href: () => '/dashboard/my_order', title: 'My Orders' },
    addProduct: { path: '/dashboard/add_product', href: () => '/dashboard/add_product', title: 'Add Product' },
    myProducts: { path: '/dashboard/my_product', href: () => '/dashboard/my_product', title: 'My Products' },
    editProduct: {
      path: '/dashboard/edit_product/:id',
      href: (productId: string) => `/dashboard/edit_product/${encodeURIComponent(productId)}`,
      title: 'Edit Listing',
    },
    myBookings: { path: '/dashboard/my_bookings', href: () => '/dashboard/my_bookings', title: 'My Bookings' },
    allSellers: { path: '/dashboard/all_seller', href: () => '/dashboard/all_seller', title: 'All Sellers' },
    allBuyers: { path: '/dashboard/all_buyer', href: () => '/dashboard/all_buyer', title: 'All Buyers' },
    reportedItems: {
      path: '/dashboard/reported_item',
      href: () => '/dashboard/reported_item',
      title: 'Reported Items',
    },
    payment: {
      path: '/dashboard/payment/:id',
      href: (bookingId: string) => `/dashboard/payment/${encodeURIComponent(bookingId)}`,
      title: 'Payment',
    },
  },
  notFound: { path: '*', href: () => '/404', title: 'Page Not Found' },
} as const;

export const SITE_NAME = 'TV Shop';
