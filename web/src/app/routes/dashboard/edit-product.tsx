import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import toast from 'react-hot-toast';
import type { WriteAnswer } from '@tv-shop/contracts';
import { Loaded } from '@/components/ui/loaded';
import { paths } from '@/config/paths';
import { useSellerBookings } from '@/features/bookings/api/get-seller-bookings';
import { useCategories } from '@/features/categories/api/get-categories';
import { AddProductForm } from '@/features/products/components/add-product-form';
import { readProductPage } from '@/features/products/api/read-product-page';
import { useProductPage } from '@/features/products/use-product-page';
import { focusLost, focusUnlisted } from '@/lib/focus-heading';
import { useSessionUser } from '@/lib/session';
import { usePageTitle } from '@/lib/use-page-title';
import { withAntd } from '@/lib/antd-theme';
import { Notice } from '@/components/ui/notice';

/** Why this listing cannot be edited here, or null when it can (the server decides the same; ADR 0057). */
function refusal(
  listing: { sold: boolean; paid_sale: boolean; reported: boolean; sellerEmail: string },
  email: string | undefined,
): string | null {
  if (listing.sellerEmail.toLowerCase() !== email?.toLowerCase()) return 'This listing is not yours: only its seller can edit it.';
  if (listing.paid_sale) return 'A buyer paid for this TV: a paid sale is final, and its listing cannot be edited.';
  if (listing.sold) return 'This TV is sold. A sold listing cannot be edited; make it available first if it was not sold after all.';
  if (listing.reported) return 'Buyers reported this listing: it cannot be edited until the admin has reviewed it.';
  return null;
}

function EditProductPageContent() {
  usePageTitle(paths.dashboard.editProduct.title);
  const id = useParams().id ?? '';
  const navigate = useNavigate();
  const email = useSessionUser()?.email;
  const categories = useCategories();
  // Live: if the TV is sold or reported meanwhile, the page says so instead of the form.
  const page = useProductPage(id, { followSeller: false, read: readProductPage });
  // Buyers who booked it and have not paid: a change cancels their bookings (ADR 0057, 0073), so the seller is told first.
  const { bookings } = useSellerBookings(email ?? '');
  const waiting = bookings.filter((b) => b.product_id === id && b.status === 'open').length;
  const saved = (answer: WriteAnswer) => {
    toast.success(answer.modifiedCount === 0 ? 'Nothing to save: the listing is as it was' : 'Listing updated');
    void navigate(paths.dashboard.myProducts.href());
  };
  const product = page.product;
  const refused = product ? refusal(product, email) : null;
  // The form gave way to a notice (the listing was removed, sold or reported while it was open):
  // the seller may be far down the form, so the page goes back up to say why, the focus with it.
  // Only when the form was shown, and only when the focus went with it (not from the search box).
  const heading = useRef<HTMLHeadingElement>(null);
  const formShown = !page.loading && !categories.loading && !!product && refused === null;
  const [hadForm, setHadForm] = useState<string | null>(null);
  useEffect(() => {
    if (formShown) setHadForm(id);
  }, [formShown, id]);
  const formGone = hadForm === id && (!product || refused !== null);
  useEffect(() => {
    if (!formGone || !heading.current) return;
    if (!focusLost()) return;
    window.scrollTo({ top: 0 });
    focusUnlisted(heading.current);
  }, [formGone]);
  return (
    <section aria-labelledby="edit-product-heading" className="add-product">
      <h1 id="edit-product-heading" className="dashboard__title" ref={heading}>
        Edit <span className="animated-logo">Listing</span>
      </h1>
      <Loaded
        loading={page.loading || categories.loading}
        error={page.error ?? categories.error}
        retry={page.error ? page.retry : categories.retry}
        what="listing"
      >
        {page.notFound || !product ? (
          <Notice
            type="warning"
            role="alert"
            title="This listing is no longer in the shop."
            description={<Link to={paths.dashboard.myProducts.href()}>Back to My Products</Link>}
          />
        ) : refused ? (
          <Notice
            type="warning"
            role="alert"
            title={refused}
            description={<Link to={paths.dashboard.myProducts.href()}>Back to My Products</Link>}
          />
        ) : (
          <>
            {waiting > 0 ? (
              <Notice
                role="alert"
                className="form-alert"
                type="info"
                title={`${waiting === 1 ? 'A buyer has' : `${waiting} buyers have`} booked this TV and not paid yet.`}
                description="Saving a change cancels their bookings (the same photos in another order do not); they are told, and can book it again as it is then."
              />
            ) : null}
            <AddProductForm
              key={product._id}
              categories={categories.categories}
              listing={product}
              onSaved={saved}
              onStale={() => void page.refresh().catch(() => undefined)}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const EditProductPage = withAntd(EditProductPageContent);
