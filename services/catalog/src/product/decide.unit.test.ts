import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@tv-shop/platform/testing';
import { readCommand, type ProductListing } from '@tv-shop/contracts';
import { productDecider, type ProductCommand } from './decide';
import type { ProductEvent } from './product';

const listing: ProductListing = {
  productId: 'p1',
  name: 'Sony Bravia 43"',
  imageUrl: '/api/images/x',
  details: 'Works well',
  location: 'Dhaka',
  resalePricePoisha: 2_500_000,
  originalPricePoisha: 6_000_000,
  useDuration: '2 years',
  condition: 'Good',
  phone: '01700000000',
  categoryId: 'sony',
  categoryName: 'Sony',
  sellerId: 's1',
  sellerName: 'Karim',
  sellerEmail: 'karim@example.com',
  postedOn: '21-11-2026',
};
const listed: ProductEvent = { type: 'ProductListed', data: listing };
const sold: ProductEvent = { type: 'ProductMarkedSold', data: { productId: 'p1' } };
const soldToB1: ProductEvent = { type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'b1', buyerName: 'Nila' } };
const given = deciderSpec(productDecider);
const seller = { actorId: 's1' };

describe('product decider', () => {
  it('given nothing, when a seller lists a product, then ProductListed', () =>
    given().when({ type: 'ListProduct', data: listing }).then([listed]));
  it('given nothing, when a listing costs less than one poisha or a fraction of one, then refused naming the price', () => {
    given()
      .when({ type: 'ListProduct', data: { ...listing, resalePricePoisha: 0 } })
      .thenThrows({ kind: 'validation', field: 'resale_price' });
    given()
      .when({ type: 'ListProduct', data: { ...listing, originalPricePoisha: 0.5 } })
      .thenThrows({ kind: 'validation', field: 'orginal_price' });
  });
  it('given nothing, when a seller lists eight photos with their thumbnails, then ProductListed carries them in order', () => {
    const imageUrls = Array.from({ length: 8 }, (_, i) => `/api/images/photo-${i}`);
    const thumbnailUrls = imageUrls.map((u) => `${u}-thumb`);
    const withPhotos = { ...listing, imageUrl: imageUrls[0]!, imageUrls, thumbnailUrls };
    given()
      .when({ type: 'ListProduct', data: withPhotos })
      .then([{ type: 'ProductListed', data: withPhotos }]);
  });
  it('given nothing, when a listing has more than eight photos, none, a cover that is not the first, or thumbnails that do not match, then refused naming the field', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `/api/images/photo-${i}`);
    given()
      .when({ type: 'ListProduct', data: { ...listing, imageUrl: nine[0]!, imageUrls: nine } })
      .thenThrows({ kind: 'validation', field: 'productImages' });
    given()
      .when({ type: 'ListProduct', data: { ...listing, imageUrls: [] } })
      .thenThrows({ kind: 'validation', field: 'productImages' });
    given()
      .when({ type: 'ListProduct', data: { ...listing, imageUrls: ['/api/images/other', listing.imageUrl] } })
      .thenThrows({ kind: 'validation', field: 'productImages' });
    given()
      .when({ type: 'ListProduct', data: { ...listing, imageUrls: [listing.imageUrl, '/api/images/y'], thumbnailUrls: ['/api/images/t'] } })
      .thenThrows({ kind: 'validation', field: 'productThumbnails' });
    given()
      .when({ type: 'ListProduct', data: { ...listing, thumbnailUrls: ['/api/images/t1', '/api/images/t2'] } })
      .thenThrows({ kind: 'validation', field: 'productThumbnails' });
  });
  it('given an available product, when its seller marks it sold, then ProductMarkedSold', () =>
    given(listed).when({ type: 'MarkProductSold', data: seller }).then([sold]));
  it('given an available product, when another seller marks it sold, then forbidden', () =>
    given(listed)
      .when({ type: 'MarkProductSold', data: { actorId: 's2' } })
      .thenThrows({ kind: 'forbidden' }));
  it('given a sold product, when marked sold again, then an illegal state; when marked available, then ProductMarkedAvailable', () => {
    given(listed, sold).when({ type: 'MarkProductSold', data: seller }).thenThrows({ kind: 'illegal_state' });
    given(listed, sold)
      .when({ type: 'MarkProductAvailable', data: seller })
      .then([{ type: 'ProductMarkedAvailable', data: { productId: 'p1' } }]);
  });
  it('given an available product, when advertised then un-advertised, then each event once', () => {
    given(listed)
      .when({ type: 'AdvertiseProduct', data: seller })
      .then([{ type: 'ProductAdvertised', data: { productId: 'p1' } }]);
    given(listed, { type: 'ProductAdvertised', data: { productId: 'p1' } })
      .when({ type: 'AdvertiseProduct', data: seller })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, { type: 'ProductAdvertised', data: { productId: 'p1' } })
      .when({ type: 'RemoveAdvertising', data: seller })
      .then([{ type: 'ProductAdvertisingRemoved', data: { productId: 'p1' } }]);
  });
  it('given a sold product, when advertised, then refused', () =>
    given(listed, sold).when({ type: 'AdvertiseProduct', data: seller }).thenThrows({ kind: 'illegal_state' }));
  it('given a product buyers reported, when advertised, then refused until the admin dismisses the reports; taking its advertising off is not (ADR 0077)', () => {
    const reported: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    const advertised: ProductEvent = { type: 'ProductAdvertised', data: { productId: 'p1' } };
    given(listed, reported).when({ type: 'AdvertiseProduct', data: seller }).thenThrows({ kind: 'illegal_state' });
    given(listed, advertised, reported)
      .when({ type: 'RemoveAdvertising', data: seller })
      .then([{ type: 'ProductAdvertisingRemoved', data: { productId: 'p1' } }]);
    given(listed, reported, { type: 'ProductReportsDismissed', data: { productId: 'p1', reports: 1 } })
      .when({ type: 'AdvertiseProduct', data: seller })
      .then([advertised]);
  });
  it('given a product, when a buyer reports it with a reason, then ProductReported with who and why', () =>
    given(listed)
      .when({ type: 'ReportProduct', data: { actorId: 'b1', actorName: 'Nila', reason: 'Photo is of another TV' } })
      .then([
        { type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: 'Photo is of another TV' } },
      ]));
  it('given a product reported by one buyer, when the same buyer reports again, then refused; another buyer may report', () => {
    const reportedByB1: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    given(listed, reportedByB1)
      .when({ type: 'ReportProduct', data: { actorId: 'b1', actorName: 'Nila', reason: 'again' } })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, reportedByB1)
      .when({ type: 'ReportProduct', data: { actorId: 'b2', actorName: 'Rafi', reason: '' } })
      .then([{ type: 'ProductReported', data: { productId: 'p1', reporterId: 'b2', reporterName: 'Rafi', reason: '' } }]);
  });
  it('given a reported product, when the admin dismisses its reports, then ProductReportsDismissed, and any buyer may report it again; with none, refused', () => {
    const reportedByB1: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    const dismissed: ProductEvent = { type: 'ProductReportsDismissed', data: { productId: 'p1', reports: 1 } };
    given(listed, reportedByB1).when({ type: 'DismissReports', data: {} }).then([dismissed]);
    given(listed).when({ type: 'DismissReports', data: {} }).thenThrows({ kind: 'illegal_state' });
    // A report that came after the admin looked is not dismissed unseen.
    given(listed, reportedByB1)
      .when({ type: 'DismissReports', data: { seen: 0 } })
      .thenThrows({ kind: 'conflict', field: 'reports' });
    given(listed, reportedByB1)
      .when({ type: 'DismissReports', data: { seen: 1 } })
      .then([dismissed]);
    given(listed, reportedByB1, dismissed).when({ type: 'DismissReports', data: {} }).thenThrows({ kind: 'illegal_state' });
    given(listed, reportedByB1, dismissed)
      .when({ type: 'ReportProduct', data: { actorId: 'b1', actorName: 'Nila', reason: 'again' } })
      .then([{ type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: 'again' } }]);
    // A tab that still shows the report dismissed meanwhile (by another admin) and a new one
    // since: the count of every report it had tells them apart, where the count shown cannot.
    const reportedByB2: ProductEvent = { ...reportedByB1, data: { ...reportedByB1.data, reporterId: 'b2' } };
    given(listed, reportedByB1, dismissed, reportedByB2)
      .when({ type: 'DismissReports', data: { seen: 1, seenTaken: 1 } })
      .thenThrows({ kind: 'conflict', field: 'reports' });
    given(listed, reportedByB1, dismissed, reportedByB2)
      .when({ type: 'DismissReports', data: { seenTaken: 2 } })
      .then([dismissed]);
    // Its seller may withdraw it again: the admin has reviewed it.
    given(listed, reportedByB1, dismissed)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', actorId: 's1' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'withdrawn' } }]);
  });
  it('given a reported product, when the admin removes it on a question whose facts changed (reports dismissed, a buyer paid), then refused; on the question as it stands, removed for its reports', () => {
    const reportedByB1: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    const dismissed: ProductEvent = { type: 'ProductReportsDismissed', data: { productId: 'p1', reports: 1 } };
    const remove = (seen: { seenReported?: boolean; seenPaid?: boolean }) => ({
      type: 'RemoveProduct' as const,
      data: { reason: 'admin' as const, ...seen },
    });
    given(listed, reportedByB1)
      .when(remove({ seenReported: true, seenPaid: false }))
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
    // Another admin kept it meanwhile: not removed on a stale list.
    given(listed, reportedByB1, dismissed)
      .when(remove({ seenReported: true, seenPaid: false }))
      .thenThrows({ kind: 'conflict', field: 'reports' });
    // Reported again after the dismissal: still reported, so the admin's choice stands.
    given(listed, reportedByB1, dismissed, reportedByB1)
      .when(remove({ seenReported: true }))
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
    // A buyer paid after the question said nobody had: asked again, with the paid-sale warning.
    given(listed, reportedByB1, soldToB1)
      .when(remove({ seenReported: true, seenPaid: false }))
      .thenThrows({ kind: 'conflict', field: 'paid_sale' });
    given(listed, reportedByB1, soldToB1)
      .when(remove({ seenReported: true, seenPaid: true }))
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
    // Sold by its seller (no buyer paid through TV Shop): the question's paid_sale stays false.
    given(listed, reportedByB1, sold)
      .when(remove({ seenReported: true, seenPaid: false }))
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
    // The spec's client says nothing of what it was shown: removed as before.
    given(listed, soldToB1)
      .when(remove({}))
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'admin' } }]);
  });
  describe('a seller edits their listing', () => {
    // The listing as the edit form sends it: every field a seller may change.
    const { productId: _p, sellerId: _s, sellerName: _n, sellerEmail: _e, postedOn: _d, ...asItIs } = listing;
    const form = { ...asItIs, imageUrls: [listing.imageUrl] };
    const edit = (over: Partial<typeof form> = {}, actorId = 's1') => ({
      type: 'EditListing' as const,
      data: { actorId, listing: { ...form, ...over } },
    });
    it('given a listing, when its seller lowers the price and rewrites the details, then ProductEdited with only what changed', () =>
      given(listed)
        .when(edit({ resalePricePoisha: 2_200_000, details: 'Works well, remote included' }))
        .then([
          {
            type: 'ProductEdited',
            data: { productId: 'p1', changes: { resalePricePoisha: 2_200_000, details: 'Works well, remote included' } },
          },
        ]));
    it('given a listing, when its seller sends it as it is, then nothing is recorded', () => given(listed).when(edit()).then([]));
    it('given an edit, when the seller edits again, then the second is measured against the first', () => {
      const cheaper: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { resalePricePoisha: 2_200_000 } } };
      given(listed, cheaper)
        .when(edit({ resalePricePoisha: 2_200_000 }))
        .then([]);
      given(listed, cheaper)
        .when(edit({ categoryId: 'walton', categoryName: 'Walton' }))
        .then([
          {
            type: 'ProductEdited',
            data: { productId: 'p1', changes: { resalePricePoisha: 2_500_000, categoryId: 'walton', categoryName: 'Walton' } },
          },
        ]);
    });
    it('given an edit since the form was filled, when the seller saves it, then refused naming edits; on the listing as it is now, recorded', () => {
      const renamed: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { name: 'Sony 43" (renamed)' } } };
      const seen = (seenEdits: number, over: Partial<typeof form> = {}) => ({
        ...edit(over),
        data: { ...edit(over).data, seenEdits },
      });
      // The form was filled before the rename: saving it would put the old name back unseen.
      given(listed, renamed)
        .when(seen(0, { details: 'Wall mount included' }))
        .thenThrows({ kind: 'conflict', field: 'edits' });
      given(listed, renamed)
        .when(seen(1, { name: 'Sony 43" (renamed)', details: 'Wall mount included' }))
        .then([{ type: 'ProductEdited', data: { productId: 'p1', changes: { details: 'Wall mount included' } } }]);
      // A count the listing never had (a made-up one) is refused too; without one, the last edit wins.
      given(listed).when(seen(3)).thenThrows({ kind: 'conflict', field: 'edits' });
      given(listed, renamed)
        .when(edit({ details: 'Wall mount included' }))
        .then([{ type: 'ProductEdited', data: { productId: 'p1', changes: { name: listing.name, details: 'Wall mount included' } } }]);
    });
    it('given a listing, when another seller or a buyer edits it, then forbidden', () => {
      given(listed)
        .when(edit({ details: 'mine now' }, 's2'))
        .thenThrows({ kind: 'forbidden' });
      given(listed)
        .when(edit({ details: 'mine now' }, 'b1'))
        .thenThrows({ kind: 'forbidden' });
    });
    it('given a listing of several photos, when the edit names only its cover (the one-photo body), then the other photos stay; another cover alone replaces them', () => {
      const three = ['/api/images/x', '/api/images/y', '/api/images/z'];
      const withThree: ProductEvent = {
        type: 'ProductListed',
        data: { ...listing, imageUrls: three, thumbnailUrls: three.map((u) => `${u}-t`) },
      };
      const { imageUrls: _, ...coverOnly } = form;
      const alone = { type: 'EditListing' as const, data: { actorId: 's1', listing: { ...coverOnly, details: 'Now with its stand' } } };
      given(withThree)
        .when(alone)
        .then([{ type: 'ProductEdited', data: { productId: 'p1', changes: { details: 'Now with its stand' } } }]);
      given(withThree)
        .when({ ...alone, data: { ...alone.data, listing: { ...coverOnly, imageUrl: '/api/images/new' } } })
        .then([
          {
            type: 'ProductEdited',
            data: { productId: 'p1', changes: { imageUrl: '/api/images/new', imageUrls: ['/api/images/new'], thumbnailUrls: [] } },
          },
        ]);
    });
    it('given a sold, reported or removed listing, or none, when its seller edits it, then refused and nothing is recorded', () => {
      const reported: ProductEvent = {
        type: 'ProductReported',
        data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
      };
      given(listed, sold)
        .when(edit({ details: 'x' }))
        .thenThrows({ kind: 'illegal_state' });
      given(listed, soldToB1)
        .when(edit({ resalePricePoisha: 1 }))
        .thenThrows({ kind: 'illegal_state' });
      given(listed, reported)
        .when(edit({ details: 'nothing to see' }))
        .thenThrows({ kind: 'illegal_state' });
      given(listed, { type: 'ProductRemoved', data: { productId: 'p1', reason: 'withdrawn' } })
        .when(edit({ details: 'x' }))
        .thenThrows({ kind: 'not_found' });
      given()
        .when(edit({ details: 'x' }))
        .thenThrows({ kind: 'not_found' });
    });
    it('given a listing, when the edit has a price under one poisha or photos that do not fit, then refused naming the field', () => {
      given(listed)
        .when(edit({ resalePricePoisha: 0 }))
        .thenThrows({ kind: 'validation', field: 'resale_price' });
      given(listed)
        .when(edit({ imageUrls: ['/api/images/other', listing.imageUrl] }))
        .thenThrows({ kind: 'validation', field: 'productImages' });
      given(listed)
        .when(edit({ thumbnailUrls: ['/api/images/a-thumb', '/api/images/b-thumb'] }))
        .thenThrows({ kind: 'validation', field: 'productThumbnails' });
    });
    it('given a listing with thumbnails, when the photos stay, then its thumbnails stay; when they change without thumbnails, then it has none', () => {
      const withThumb: ProductEvent = {
        type: 'ProductListed',
        data: { ...listing, imageUrls: [listing.imageUrl], thumbnailUrls: ['/api/images/t'] },
      };
      given(withThumb)
        .when(edit({ details: 'Works well.' }))
        .then([{ type: 'ProductEdited', data: { productId: 'p1', changes: { details: 'Works well.' } } }]);
      given(withThumb)
        .when(edit({ imageUrl: '/api/images/y', imageUrls: ['/api/images/y'] }))
        .then([
          {
            type: 'ProductEdited',
            data: { productId: 'p1', changes: { imageUrl: '/api/images/y', imageUrls: ['/api/images/y'], thumbnailUrls: [] } },
          },
        ]);
    });
    it('given a listing of three photos with thumbnails, when the seller makes the last the cover and removes one, without thumbnails, then each kept photo keeps its own; with a new photo among them, then none', () => {
      const three = ['/api/images/x', '/api/images/y', '/api/images/z'];
      const withThree: ProductEvent = {
        type: 'ProductListed',
        data: { ...listing, imageUrl: three[0]!, imageUrls: three, thumbnailUrls: three.map((u) => `${u}-t`) },
      };
      given(withThree)
        .when(edit({ imageUrl: '/api/images/z', imageUrls: ['/api/images/z', '/api/images/x'] }))
        .then([
          {
            type: 'ProductEdited',
            data: {
              productId: 'p1',
              changes: {
                imageUrl: '/api/images/z',
                imageUrls: ['/api/images/z', '/api/images/x'],
                thumbnailUrls: ['/api/images/z-t', '/api/images/x-t'],
              },
            },
          },
        ]);
      given(withThree)
        .when(edit({ imageUrl: '/api/images/z', imageUrls: ['/api/images/z', '/api/images/new'] }))
        .then([
          {
            type: 'ProductEdited',
            data: {
              productId: 'p1',
              changes: { imageUrl: '/api/images/z', imageUrls: ['/api/images/z', '/api/images/new'], thumbnailUrls: [] },
            },
          },
        ]);
    });
    it('given an edit that changed the category, when the product is folded, then its listing is the edited one', () => {
      const state = [
        listed,
        { type: 'ProductEdited', data: { productId: 'p1', changes: { categoryId: 'walton', categoryName: 'Walton' } } } as ProductEvent,
      ].reduce(productDecider.evolve, productDecider.initialState());
      expect(state.status === 'listed' && [state.listing.categoryId, state.listing.categoryName, state.listing.name]).toEqual([
        'walton',
        'Walton',
        listing.name,
      ]);
    });
  });
  it('given a product, when its own seller reports it, then forbidden', () =>
    given(listed)
      .when({ type: 'ReportProduct', data: { actorId: 's1', actorName: 'Karim', reason: '' } })
      .thenThrows({ kind: 'forbidden' }));
  it('given a product nobody reported, when an admin removes it, then ProductRemoved for the admin', () =>
    given(listed)
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'admin' } }]));
  it('given a reported product, when an admin removes it, then ProductRemoved for the report: the product says so, not the sender', () => {
    const reported: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    given(listed, reported)
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
    given(listed, sold, reported)
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } }]);
  });
  it('given a product, reported or not, when its seller account is deleted, then ProductRemoved as seller-deleted', () => {
    const reported: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: '' },
    };
    given(listed)
      .when({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'seller-deleted' } }]);
    given(listed, reported)
      .when({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } })
      .then([{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'seller-deleted' } }]);
  });
  it('given a product sold (paid for, or by hand) a moment before its seller account was deleted, then it stays', () => {
    given(listed, soldToB1)
      .when({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } })
      .then([]);
    given(listed, sold)
      .when({ type: 'RemoveProduct', data: { reason: 'seller-deleted' } })
      .then([]);
  });
  it('given a product for sale or sold by hand, when its seller withdraws it, then ProductRemoved as withdrawn', () => {
    const withdrawn = [{ type: 'ProductRemoved', data: { productId: 'p1', reason: 'withdrawn' } }] as const;
    given(listed)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', ...seller } })
      .then([...withdrawn]);
    given(listed, sold)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', ...seller } })
      .then([...withdrawn]);
  });
  it('given a product, when another seller withdraws it, then forbidden; when a buyer paid for it, then refused: a paid sale is final', () => {
    given(listed)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', actorId: 's2' } })
      .thenThrows({ kind: 'forbidden' });
    given(listed, soldToB1)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', ...seller } })
      .thenThrows({ kind: 'illegal_state' });
  });
  it('given a reported product, when its seller withdraws it, then refused: the reports stay for the admin to review', () => {
    const reported: ProductEvent = {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nila', reason: 'Not as shown' },
    };
    given(listed, reported)
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', ...seller } })
      .thenThrows({ kind: 'illegal_state' });
  });
  it('given a removed product, when its seller withdraws it again, then not found', () => {
    given(listed, { type: 'ProductRemoved', data: { productId: 'p1', reason: 'withdrawn' } })
      .when({ type: 'RemoveProduct', data: { reason: 'withdrawn', ...seller } })
      .thenThrows({ kind: 'not_found' });
  });
  it('when a withdrawal does not say who asks, then the command is refused on data.actorId', () => {
    expect(readCommand('catalog', { type: 'RemoveProduct', data: { reason: 'withdrawn' } })).toMatchObject({
      ok: false,
      field: 'data.actorId',
    });
  });
  it('when a sender claims a removal reason only the product may give (reported), then the command is refused on data.reason', () => {
    const read = readCommand('catalog', { type: 'RemoveProduct', data: { reason: 'reported' } });
    expect(read).toMatchObject({ ok: false, field: 'data.reason' });
  });
  it('given a removed product, when anything happens to it, then not found', () => {
    const removed: ProductEvent = { type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } };
    given(listed, removed).when({ type: 'MarkProductSold', data: seller }).thenThrows({ kind: 'not_found' });
    given(listed, removed)
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .thenThrows({ kind: 'not_found', message: 'This listing was taken off TV Shop' });
    // One never listed is not found, as any id the shop does not know.
    given()
      .when({ type: 'RemoveProduct', data: { reason: 'admin' } })
      .thenThrows({ kind: 'not_found', message: 'Product not found' });
  });
  it('given an available product, when a booking buys it, then ProductMarkedSold to that booking; the same sale again changes nothing', () => {
    given(listed)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila' } })
      .then([soldToB1]);
    given(listed, soldToB1)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila' } })
      .then([]);
  });
  it('given a listing its seller edited, when a booking placed before the edit buys it, then refused naming the listing; one placed after, sold (ADR 0058)', () => {
    const edited: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { resalePricePoisha: 2_500_000 } } };
    given(listed, edited)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila', listingEdits: 0 } })
      .thenThrows({ kind: 'illegal_state', field: 'listing' });
    given(listed, edited)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila', listingEdits: 1 } })
      .then([soldToB1]);
    // A booking from before the terms were kept is sold as before.
    given(listed, edited)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila' } })
      .then([soldToB1]);
  });
  it('given a listing whose photos its seller only put in another order, when a booking placed before buys it, then sold; after another edit, refused (ADR 0073)', () => {
    const three = ['/api/images/a', '/api/images/b', '/api/images/c'];
    const withPhotos: ProductEvent = { type: 'ProductListed', data: { ...listing, imageUrl: three[0]!, imageUrls: three } };
    const reordered = ['/api/images/c', '/api/images/a', '/api/images/b'];
    const reorder: ProductEvent = {
      type: 'ProductEdited',
      data: { productId: 'p1', changes: { imageUrl: reordered[0]!, imageUrls: reordered } },
    };
    const sale = (listingTerms: number) => ({
      type: 'RecordSale' as const,
      data: { bookingId: 'b1', buyerName: 'Nila', listingEdits: 0, listingTerms },
    });
    given(withPhotos, reorder).when(sale(0)).then([soldToB1]);
    // Another photo in place of one is another term, as is any other field.
    const swapped: ProductEvent = {
      type: 'ProductEdited',
      data: { productId: 'p1', changes: { imageUrls: [reordered[0]!, reordered[1]!, '/api/images/d'] } },
    };
    given(withPhotos, reorder, swapped).when(sale(0)).thenThrows({ kind: 'illegal_state', field: 'listing' });
    given(withPhotos, reorder, swapped).when(sale(1)).then([soldToB1]);
    const priced: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { resalePricePoisha: 2_500_000 } } };
    given(withPhotos, reorder, priced).when(sale(0)).thenThrows({ kind: 'illegal_state', field: 'listing' });
    // An edit from before several photos names the cover alone: the listing has that one photo
    // then, as orders folds it too (its product facts' spec tells the same story), so the same
    // photo named again is no new term.
    const coverOnly: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { imageUrl: '/api/images/z' } } };
    const same: ProductEvent = { type: 'ProductEdited', data: { productId: 'p1', changes: { imageUrls: ['/api/images/z'] } } };
    given(withPhotos, coverOnly, same).when(sale(1)).then([soldToB1]);
    // A booking from before the terms were kept still counts every edit.
    given(withPhotos, reorder)
      .when({ type: 'RecordSale', data: { bookingId: 'b1', buyerName: 'Nila', listingEdits: 0 } })
      .thenThrows({ kind: 'illegal_state', field: 'listing' });
  });
  it('given a product sold through a paid booking, when its seller makes it available, then refused: a paid sale is final', () =>
    given(listed, soldToB1)
      .when({ type: 'MarkProductAvailable', data: seller })
      .thenThrows({ kind: 'illegal_state', message: expect.stringMatching(/paid sale is final/) }));
  it('given a product its seller marked sold (sold elsewhere), when they make it available again, then ProductMarkedAvailable', () =>
    given(listed, sold)
      .when({ type: 'MarkProductAvailable', data: seller })
      .then([{ type: 'ProductMarkedAvailable', data: { productId: 'p1' } }]));
  it('given a product sold through a paid booking, when another booking books or buys it, then refused', () =>
    given(listed, soldToB1)
      .when({ type: 'RecordSale', data: { bookingId: 'b2', buyerName: 'Rafi' } })
      .thenThrows({ kind: 'illegal_state' }));
  it('given a product sold to one booking or by its seller, when another booking buys it, then refused', () => {
    given(listed, { type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'b1' } })
      .when({ type: 'RecordSale', data: { bookingId: 'b2', buyerName: 'Rafi' } })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, sold)
      .when({ type: 'RecordSale', data: { bookingId: 'b2', buyerName: 'Rafi' } })
      .thenThrows({ kind: 'illegal_state' });
    given(listed, { type: 'ProductRemoved', data: { productId: 'p1', reason: 'admin' } })
      .when({ type: 'RecordSale', data: { bookingId: 'b2', buyerName: 'Rafi' } })
      .thenThrows({ kind: 'not_found' });
  });
  it('when a command of a type it does not know reaches decide (a misspelling past the type checker), then 400 on type, never undefined', () =>
    given()
      .when({ type: 'MarkProductSould', data: {} } as unknown as ProductCommand)
      .thenThrows({ kind: 'validation', field: 'type' }));
});
