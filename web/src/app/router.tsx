import { Suspense, useEffect, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { RootLayout } from '@/components/layout/root-layout';
import { PageSkeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { notePageMounted } from '@/lib/first-screen';
import { usePageTitle } from '@/lib/use-page-title';
import { auditPaths } from '@/features/audit/paths';
import { RequireAuth } from './guards/require-auth';
import { RequireRole } from './guards/require-role';
import { page, PageBoundary } from './page-code';
import { SessionEnd } from './session-end';

const d = paths.dashboard;

const HomePage = page(() => import('./routes/home'), 'HomePage');
const AllProductsPage = page(() => import('./routes/all-products'), 'AllProductsPage');
const BlogsPage = page(() => import('./routes/blogs'), 'BlogsPage');
const CategoryPage = page(() => import('./routes/category'), 'CategoryPage');
const LoginPage = page(() => import('./routes/login'), 'LoginPage');
const SignupPage = page(() => import('./routes/signup'), 'SignupPage');
const NotFoundPage = page(() => import('./routes/not-found'), 'NotFoundPage');
const ProductPage = page(() => import('./routes/product'), 'ProductPage');
const SellerPage = page(() => import('./routes/seller'), 'SellerPage');
const DashboardLayout = page(() => import('./routes/dashboard/layout'), 'DashboardLayout');
const ProfilePage = page(() => import('./routes/dashboard/profile'), 'ProfilePage');
const MyOrdersPage = page(() => import('./routes/dashboard/my-orders'), 'MyOrdersPage');
const PaymentPage = page(() => import('./routes/dashboard/payment'), 'PaymentPage');
const AddProductPage = page(() => import('./routes/dashboard/add-product'), 'AddProductPage');
const EditProductPage = page(() => import('./routes/dashboard/edit-product'), 'EditProductPage');
const MyProductsPage = page(() => import('./routes/dashboard/my-products'), 'MyProductsPage');
const MyBookingsPage = page(() => import('./routes/dashboard/my-bookings'), 'MyBookingsPage');
const AllSellersPage = page(() => import('./routes/dashboard/all-sellers'), 'AllSellersPage');
const AllBuyersPage = page(() => import('./routes/dashboard/all-buyers'), 'AllBuyersPage');
const ReportedItemsPage = page(() => import('./routes/dashboard/reported-items'), 'ReportedItemsPage');
// The admin's audit pages.
const EventLogPage = page(() => import('./routes/dashboard/event-log'), 'EventLogPage');
const StreamTimelinePage = page(() => import('./routes/dashboard/stream-timeline'), 'StreamTimelinePage');

/** While a page's code loads: its shape in grey, never a blank screen, and already its title. */
function PageFallback({ title }: { title: string }) {
  usePageTitle(title);
  return <PageSkeleton />;
}

/** Says when the first page is on screen (its code in, its reads started): lib/first-screen.ts. */
function PageMounted() {
  useEffect(notePageMounted, []);
  return null;
}

/** A page in its Suspense, titled `title` (paths.ts) from the moment it is opened. */
const loading = (element: ReactNode, title: string) => (
  <PageBoundary>
    <Suspense fallback={<PageFallback title={title} />}>
      <PageMounted />
      {element}
    </Suspense>
  </PageBoundary>
);

const router = createBrowserRouter([
  {
    element: (
      <>
        <SessionEnd />
        <RootLayout />
      </>
    ),
    children: [
      { path: paths.home.path, element: loading(<HomePage />, paths.home.title) },
      { path: paths.allProducts.path, element: loading(<AllProductsPage />, paths.allProducts.title) },
      { path: paths.blogs.path, element: loading(<BlogsPage />, paths.blogs.title) },
      { path: paths.login.path, element: loading(<LoginPage />, paths.login.title) },
      { path: paths.signup.path, element: loading(<SignupPage />, paths.signup.title) },
      { path: paths.category.path, element: loading(<CategoryPage />, paths.category.title) },
      { path: paths.product.path, element: loading(<ProductPage />, paths.product.title) },
      { path: paths.seller.path, element: loading(<SellerPage />, paths.seller.title) },
      {
        element: <RequireAuth />,
        children: [
          {
            element: loading(<DashboardLayout />, d.root.title),
            children: [
              { path: d.root.path, element: loading(<ProfilePage />, d.root.title) },
              {
                element: <RequireRole role="Buyer" />,
                children: [
                  { path: d.myOrders.path, element: loading(<MyOrdersPage />, d.myOrders.title) },
                  { path: d.payment.path, element: loading(<PaymentPage />, d.payment.title) },
                ],
              },
              {
                element: <RequireRole role="Seller" />,
                children: [
                  { path: d.addProduct.path, element: loading(<AddProductPage />, d.addProduct.title) },
                  { path: d.myProducts.path, element: loading(<MyProductsPage />, d.myProducts.title) },
                  { path: d.editProduct.path, element: loading(<EditProductPage />, d.editProduct.title) },
                  { path: d.myBookings.path, element: loading(<MyBookingsPage />, d.myBookings.title) },
                ],
              },
              {
                element: <RequireRole role="Admin" />,
                children: [
                  { path: d.allSellers.path, element: loading(<AllSellersPage />, d.allSellers.title) },
                  { path: d.allBuyers.path, element: loading(<AllBuyersPage />, d.allBuyers.title) },
                  { path: d.reportedItems.path, element: loading(<ReportedItemsPage />, d.reportedItems.title) },
                  { path: auditPaths.events.path, element: loading(<EventLogPage />, auditPaths.events.title) },
                  { path: auditPaths.stream.path, element: loading(<StreamTimelinePage />, auditPaths.stream.title) },
                ],
              },
            ],
          },
        ],
      },
      { path: paths.notFound.path, element: loading(<NotFoundPage />, paths.notFound.title) },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
