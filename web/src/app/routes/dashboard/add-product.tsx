import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { Loaded } from '@/components/ui/loaded';
import { paths } from '@/config/paths';
import { useCategories } from '@/features/categories/api/get-categories';
import { AddProductForm } from '@/features/products/components/add-product-form';
import { usePageTitle } from '@/lib/use-page-title';
import { withAntd } from '@/lib/antd-theme';

function AddProductPageContent() {
  usePageTitle(paths.dashboard.addProduct.title);
  const navigate = useNavigate();
  const { categories, loading, error, retry } = useCategories();
  const added = () => {
    toast.success('Product Add successfully');
    void navigate(paths.dashboard.myProducts.href());
  };
  return (
    <section aria-labelledby="add-product-heading" className="add-product">
      <h1 id="add-product-heading" className="dashboard__title">
        Add <span className="animated-logo">Product</span>
      </h1>
      <Loaded loading={loading} error={error} retry={retry} what="categories">
        <AddProductForm categories={categories} onSaved={added} />
      </Loaded>
    </section>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const AddProductPage = withAntd(AddProductPageContent);
