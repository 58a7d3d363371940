import type { CatalogEvent, ProductListing } from '@tv-shop/contracts';

export type ProductEvent = Extract<CatalogEvent, { data: { productId: string } }>;

export type ProductState =
  | { status: 'none' }
  | { status: 'listed'; listing: ProductListing; sold: boolean; soldTo: string | null; advertised: boolean; reported: boolean }
  | { status: 'removed'; listing: ProductListing };

export const initialState = (): ProductState => ({ status: 'none' });

export function evolve(state: ProductState, event: ProductEvent): ProductState {
  if (event.type === 'ProductListed')
    return { status: 'listed', listing: event.data, sold: false, soldTo: null, advertised: false, reported: false };
  if (state.status !== 'listed') return state;
  switch (event.type) {
    case 'ProductMarkedSold':
      return { ...state, sold: true, soldTo: event.data.bookingId ?? null, advertised: false };
    case 'ProductMarkedAvailable':
      return { ...state, sold: false, soldTo: null };
    case 'ProductAdvertised':
      return { ...state, advertised: true };
    case 'ProductAdvertisingRemoved':
      return { ...state, advertised: false };
    case 'ProductReported':
      return { ...state, reported: true };
    case 'ProductRemoved':
      return { status: 'removed', listing: state.listing };
  }
}
