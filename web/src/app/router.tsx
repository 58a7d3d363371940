import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { RootLayout } from '@/components/layout/root-layout';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { auditPaths } from '@/features/audit/paths';
import { RequireAuth } from './guards/require-auth';
import { RequireRole } from './guards/require-role';
import { SessionEnd } from './session-end';
import { AllProductsPage } from './routes/all-products';
import { BlogsPage } from './routes/blogs';
import { CategoryPage } from './routes/category';
import { AddProductPage } from './routes/dashboard/add-product';
import { AllBuyersPage } from './routes/dashboard/all-buyers';
import { AllSellersPage } from './routes/dashboard/all-sellers';
import { DashboardLayout } from './routes/dashboard/layout';
import { MyBookingsPage } from './routes/dashboard/my-bookings';
import { MyOrdersPage } from './routes/dashboard/my-orders';
import { MyProductsPage } from './routes/dashboard/my-products';
import { PaymentPage } from './routes/dashboard/payment';
import { ProfilePage } from './routes/dashboard/profile';
import { ReportedItemsPage } from './routes/dashboard/reported-items';
import { HomePage } from './routes/home';
import { LoginPage } from './routes/login';
import { NotFoundPage } from './routes/not-found';
import { ProductPage } from './routes/product';
import { SellerPage } from './routes/seller';
import { SignupPage } from './routes/signup';

const d = paths.dashboard;

// The admin's audit pages are downloaded only when the admin opens them.
const EventLogPage = lazy(() => import('./routes/dashboard/event-log').then((m) => ({ default: m.EventLogPage })));
const StreamTimelinePage = lazy(() => import('./routes/dashboard/stream-timeline').then((m) => ({ default: m.StreamTimelinePage })));
const loading = (page: ReactNode) => <Suspense fallback={<Spinner />}>{page}</Suspense>;

const router = createBrowserRouter([
  {
    element: (
      <>
        <SessionEnd />
        <RootLayout />
      </>
    ),
    children: [
      { path: paths.home.path, element: <HomePage /> },
      { path: paths.allProducts.path, element: <AllProductsPage /> },
      { path: paths.blogs.path, element: <BlogsPage /> },
      { path: paths.login.path, element: <LoginPage /> },
      { path: paths.signup.path, element: <SignupPage /> },
      { path: paths.category.path, element: <CategoryPage /> },
      { path: paths.product.path, element: <ProductPage /> },
      { path: paths.seller.path, element: <SellerPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <DashboardLayout />,
            children: [
              { path: d.root.path, element: <ProfilePage /> },
              {
                element: <RequireRole role="Buyer" />,
                children: [
                  { path: d.myOrders.path, element: <MyOrdersPage /> },
                  { path: d.payment.path, element: <PaymentPage /> },
                ],
              },
              {
                element: <RequireRole role="Seller" />,
                children: [
                  { path: d.addProduct.path, element: <AddProductPage /> },
                  { path: d.myProducts.path, element: <MyProductsPage /> },
                  { path: d.myBookings.path, element: <MyBookingsPage /> },
                ],
              },
              {
                element: <RequireRole role="Admin" />,
                children: [
                  { path: d.allSellers.path, element: <AllSellersPage /> },
                  { path: d.allBuyers.path, element: <AllBuyersPage /> },
                  { path: d.reportedItems.path, element: <ReportedItemsPage /> },
                  { path: auditPaths.events.path, element: loading(<EventLogPage />) },
                  { path: auditPaths.stream.path, element: loading(<StreamTimelinePage />) },
                ],
              },
            ],
          },
        ],
      },
      { path: paths.notFound.path, element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
