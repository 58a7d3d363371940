import { Router, type Request, type Response } from 'express';
import {
  AddProductBody,
  postDate,
  ProductSearchQuery,
  ReportProductBody,
  DismissReportsBody,
  RemoveProductBody,
  EditProductBody,
  removedReasonText,
  type EditableListing,
  type ProductListing,
  type ProductPageAnswer,
  type ProductSearchAnswer,
  type SellerPageAnswer,
} from '@tv-shop/contracts';
import { AppError, notFound, uuidFromName } from '@tv-shop/platform';
import { selfOrAdmin, withRole } from '../auth/middleware';
import { CommandSender } from '../commands';
import type { GatewayDeps } from '../deps';
import { idParam, parse, queryParam } from '../http/validate';

const poisha = (tk: number) => Math.round(tk * 100);

/** What a seller says of their TV, in the listing's own words (catalog fills the category's name). */
const listingOf = (body: AddProductBody): EditableListing => ({
  name: body.porduct_name,
  imageUrl: body.productImage,
  // The spec's client sends its one photo as productImage only.
  imageUrls: body.productImages ?? [body.productImage],
  ...(body.productThumbnails ? { thumbnailUrls: body.productThumbnails } : {}),
  details: body.details,
  location: body.location,
  resalePricePoisha: poisha(body.resale_price),
  originalPricePoisha: poisha(body.orginal_price),
  useDuration: body.use_duration,
  condition: body.product_condition,
  phone: body.phone_number,
  categoryId: body.category_id,
  categoryName: '',
});

export function catalogRoutes({ reads, sender, lists, position }: GatewayDeps): Router {
  const r = Router();
  const cached = (key: string, load: () => Promise<unknown>) => lists.cache.get(key, lists.version(), load);

  // The public lists are the busiest reads and change only when the catalog projection moves.
  const sendList = (key: string, load: () => Promise<unknown>) => async (_req: Request, res: Response) =>
    void res.type('json').send(await cached(key, load));
  r.get(
    '/categories',
    sendList('categories', () => reads.catalog.categories()),
  );
  r.get(
    '/blogs',
    sendList('blogs', () => reads.catalog.blogs()),
  );
  r.get(
    '/all_products',
    sendList('all', () => reads.catalog.allProducts()),
  );
  r.get(
    '/advertise_products',
    sendList('advertised', () => reads.catalog.advertisedProducts()),
  );
  // Before /products/:categoryId, which would take "search" for a category.
  r.get('/products/search', async (req, res) => {
    const query = parse(ProductSearchQuery, req.query, 'query');
    // The position before the query: a listing applied while it runs may then still join by push.
    const at = position();
    const answer: ProductSearchAnswer = { ...(await reads.catalog.search(query)), position: at };
    res.json(answer);
  });
  // A product's page and a seller's page, kept apart from the lists: open pages read them again
  // together when the seller's listings change (ADR 0067), and then one query answers them all.
  // They join the catalog's rows and the users', so either moving reads them again; one not
  // found is not kept.
  const cachedPage = (key: string, load: () => Promise<unknown>) => lists.pages.get(key, lists.pagesVersion(), load, (v) => v !== null);
  r.get('/product/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Product');
    const page = await cachedPage(`product:${id}`, async (): Promise<ProductPageAnswer | null> => {
      const product = await reads.catalog.product(id);
      return product ? { product, seller: await reads.sellerProfile(product.sellerId) } : null;
    });
    if (page === 'null') {
      // A listing taken off the shop: 410, saying why and where others like it are.
      const removed = await reads.catalog.removed(id);
      if (removed)
        throw new AppError('gone', `This TV is no longer for sale: ${removedReasonText(removed.reason)}`, {
          field: 'id',
          extensions: { removed },
        });
      throw notFound('Product', 'id');
    }
    res.type('json').send(page);
  });
  r.get('/sellers/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Seller');
    const page = await cachedPage(`seller:${id}`, async (): Promise<SellerPageAnswer | null> => {
      const seller = await reads.sellerProfile(id);
      return seller ? { seller, listings: await reads.catalog.availableOf(id) } : null;
    });
    if (page === 'null') throw notFound('Seller', 'id');
    res.type('json').send(page);
  });
  // A category's list is kept with the pages: any id may be asked for, and made-up ones must not
  // push All Products, the advertised and the categories out of theirs.
  r.get('/products/:categoryId', async (req, res) => {
    const id = idParam(req.params.categoryId, 'Category');
    const list = await cachedPage(`category:${id}`, async () =>
      (await reads.catalog.categoryExists(id)) ? reads.catalog.productsOfCategory(id) : null,
    );
    if (list === 'null') throw notFound('Category', 'categoryId');
    res.type('json').send(list);
  });

  // Seller name, email and verified mark come from the account; the category name from the catalog.
  r.post('/products', async (req, res) => {
    const seller = withRole(req, 'Seller');
    const body = parse(AddProductBody, req.body);
    const commandId = sender.commandId(req);
    const productId = uuidFromName(`product:${commandId}`);
    const listing: ProductListing = {
      productId,
      ...listingOf(body),
      sellerId: seller._id,
      sellerName: seller.name,
      sellerEmail: seller.email,
      postedOn: postDate(new Date()),
    };
    const reply = await sender.send(req, { service: 'catalog', type: 'ListProduct', aggregateId: productId, data: listing, commandId });
    res.status(201).json(CommandSender.answer(reply, productId));
  });

  r.get('/seller_products', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const user = selfOrAdmin(req, email);
    if (user.role !== 'Admin') withRole(req, 'Seller');
    res.json(await reads.catalog.sellerProducts(email));
  });

  // The seller's own listings taken off the shop, and why (their token says whose): a removal
  // made while they were away is still told, on their My Products.
  r.get('/seller_removed_products', async (req, res) => {
    const seller = withRole(req, 'Seller');
    res.json(await reads.catalog.removedOf(seller._id));
  });

  const sellerAction = (path: string, type: 'MarkProductSold' | 'MarkProductAvailable' | 'AdvertiseProduct' | 'RemoveAdvertising') =>
    r.put(path, async (req, res) => {
      const seller = withRole(req, 'Seller');
      const id = idParam(String(req.params.id), 'Product');
      const reply = await sender.send(req, { service: 'catalog', type, aggregateId: id, data: { actorId: seller._id } });
      res.json(CommandSender.answer(reply));
    });
  sellerAction('/product/sold_status/:id', 'MarkProductSold');
  sellerAction('/product/unsold_status/:id', 'MarkProductAvailable');
  sellerAction('/product/get_advertise/:id', 'AdvertiseProduct');
  sellerAction('/product/remove_advertise/:id', 'RemoveAdvertising');
  // A seller takes their own TV off the shop for good (ADR 0054): the product's decider checks
  // whose it is and refuses a TV a buyer paid for or one buyers reported. The spec's DELETE stays
  // the admin's.
  r.put('/product/withdraw/:id', async (req, res) => {
    const seller = withRole(req, 'Seller');
    const id = idParam(String(req.params.id), 'Product');
    const data = { reason: 'withdrawn' as const, actorId: seller._id };
    const reply = await sender.send(req, { service: 'catalog', type: 'RemoveProduct', aggregateId: id, data });
    res.json(CommandSender.answer(reply));
  });

  // A seller edits their own listing (ADR 0057): the whole listing as Add Product sends it. The
  // product's decider checks it is theirs, and refuses a sold or reported one.
  r.put('/product/:id', async (req, res) => {
    const seller = withRole(req, 'Seller');
    const id = idParam(String(req.params.id), 'Product');
    const body = parse(AddProductBody, req.body);
    const listing = listingOf(body);
    // The spec's one-photo body (productImage alone) names the cover, not the whole list: the
    // listing's other photos stay while its cover does (ADR 0057).
    if (!body.productImages) delete listing.imageUrls;
    // The edits the seller's form was filled from (the web app sends it): one made since refuses
    // this edit instead of being overwritten unseen (ADR 0061). Without it, the last edit wins.
    const { edits } = parse(EditProductBody, req.body);
    const data = { actorId: seller._id, listing, ...(edits === undefined ? {} : { seenEdits: edits }) };
    const reply = await sender.send(req, { service: 'catalog', type: 'EditListing', aggregateId: id, data });
    res.json(CommandSender.answer(reply));
  });

  r.put('/product/add_reported/:id', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    const id = idParam(String(req.params.id), 'Product');
    // The spec's client sends no body at all: that is a report without a reason.
    const { reason } = parse(ReportProductBody, req.body ?? {});
    const reply = await sender.send(req, {
      service: 'catalog',
      type: 'ReportProduct',
      aggregateId: id,
      data: { actorId: buyer._id, actorName: buyer.name, reason },
    });
    res.json(CommandSender.answer(reply));
  });

  // A buyer's own open reports (the listings' ids), so their app says "You reported this" after a
  // reload rather than offering Add Report again, which the catalog would refuse.
  r.get('/reports/mine', async (req, res) => {
    const buyer = withRole(req, 'Buyer');
    res.json(await reads.catalog.reportedBy(buyer._id));
  });

  r.get('/reported_products', async (req, res) => {
    withRole(req, 'Admin');
    res.json(await reads.reportedProducts());
  });

  // The admin keeps a reported TV: its reports are dismissed (they stay in the log), it leaves
  // Reported Items, and its seller may withdraw it again.
  r.put('/product/dismiss_reports/:id', async (req, res) => {
    withRole(req, 'Admin');
    const id = idParam(String(req.params.id), 'Product');
    // How many reports the admin was shown (the web app sends it): newer ones are not dismissed unseen.
    const body = parse(DismissReportsBody, req.body ?? {});
    const data = {
      ...(body.reports === undefined ? {} : { seen: body.reports }),
      ...(body.reports_taken === undefined ? {} : { seenTaken: body.reports_taken }),
    };
    const reply = await sender.send(req, { service: 'catalog', type: 'DismissReports', aggregateId: id, data });
    res.json(CommandSender.answer(reply));
  });

  r.delete('/product/:id', async (req, res) => {
    withRole(req, 'Admin');
    const id = idParam(String(req.params.id), 'Product');
    // Whether it goes for a report is the product's own stream to say (catalog's decider); what the
    // admin was shown (the web app sends it) is checked there too: not removed on a stale question.
    const body = parse(RemoveProductBody, req.body ?? {});
    const data = {
      reason: 'admin' as const,
      ...(body.reported === undefined ? {} : { seenReported: body.reported }),
      ...(body.paid_sale === undefined ? {} : { seenPaid: body.paid_sale }),
    };
    const reply = await sender.send(req, { service: 'catalog', type: 'RemoveProduct', aggregateId: id, data });
    res.json({ ...CommandSender.answer(reply), deletedCount: 1 });
  });
  return r;
}
