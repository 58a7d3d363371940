import type { ReportedProduct } from '@tv-shop/contracts';
import { apiRead } from '@/lib/api-client';
import { useLiveList } from '@/lib/use-live-list';
import { reportedProductsStore } from '../atoms';

export const getReportedProducts = () => apiRead<ReportedProduct[]>('/reported_products');

const every = () => true;

/** The admin's reported products with their reports; a new report or a removal arrives by push. */
export function useReportedProducts() {
  const { items, ...state } = useLiveList(reportedProductsStore, getReportedProducts, every);
  return { products: items, ...state };
}
