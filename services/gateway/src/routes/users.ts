import { Router } from 'express';
import { REACTIONS_OF, UpsertUserBody } from '@tv-shop/contracts';
import { AppError, forbidden, notFound } from '@tv-shop/platform';
import { selfOrAdmin, signedIn, withRole } from '../auth/middleware';
import { CommandSender } from '../commands';
import type { GatewayDeps } from '../deps';
import { idParam, parse, queryParam } from '../http/validate';

export function userRoutes({ reads, sender }: GatewayDeps): Router {
  const r = Router();

  const roleCheck = (path: string, key: 'isAdmin' | 'isBuyer' | 'isSeller', role: string) =>
    r.get(path, async (req, res) => {
      const email = String(req.params.email ?? '').toLowerCase();
      selfOrAdmin(req, email);
      const user = await reads.identity.userByEmail(email);
      res.json({ [key]: user?.role === role });
    });
  roleCheck('/users_admin/:email', 'isAdmin', 'Admin');
  roleCheck('/users_buyer/:email', 'isBuyer', 'Buyer');
  roleCheck('/users_seller/:email', 'isSeller', 'Seller');

  // A seller's public card: what a product card shows, never the email. Names are not unique, so
  // the card is found by the seller's id or by one of their products; a name answers only when
  // exactly one seller has it (ADR 0022).
  r.get('/users_by_seller', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    if (q.sellerId !== undefined) {
      const card = await reads.identity.sellerCard(idParam(queryParam(q, 'sellerId'), 'Seller'));
      if (!card) throw notFound('Seller', 'sellerId');
      return void res.json(card);
    }
    if (q.product !== undefined) {
      const product = await reads.catalog.product(idParam(queryParam(q, 'product'), 'Product'));
      const card = product ? await reads.identity.sellerCard(product.sellerId) : null;
      if (!card) throw notFound('Seller', 'product');
      return void res.json(card);
    }
    res.json(await reads.identity.sellerNamed(queryParam(q, 'seller')));
  });

  r.get('/users', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    selfOrAdmin(req, email);
    const user = await reads.identity.userByEmail(email);
    if (!user) throw notFound('User', 'email');
    res.json(user);
  });

  // Changes only the caller's own name and photo; identity refuses a new email or role (Admin is never granted).
  r.put('/users', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const me = signedIn(req);
    if (me.email !== email) throw forbidden('You may only change your own profile');
    const body = parse(UpsertUserBody, req.body);
    // What was asked goes as it is: identity refuses a change of email (400) or of role (403).
    const reply = await sender.send(req, {
      service: 'identity',
      type: 'UpdateProfile',
      aggregateId: me._id,
      data: { name: body.name, photoURL: body.photoURL, email: body.email, role: body.role },
    });
    res.json(CommandSender.answer(reply));
  });

  r.get('/users_role', async (req, res) => {
    withRole(req, 'Admin');
    const role = queryParam(req.query, 'role');
    if (role !== 'Buyer' && role !== 'Seller') throw new AppError('validation', 'role must be Buyer or Seller', { field: 'role' });
    res.json(await reads.identity.usersWithRole(role));
  });

  r.delete('/users/:id', async (req, res) => {
    const admin = withRole(req, 'Admin');
    const id = idParam(req.params.id, 'User');
    // The answer waits until the seller's listings are removed, and the bookings of them and the
    // buyer's own are cancelled (CommandSender.send's settle).
    const reply = await sender.send(
      req,
      { service: 'identity', type: 'DeleteUser', aggregateId: id, data: { requestedBy: admin._id } },
      { settle: [...REACTIONS_OF.DeleteUser] },
    );
    res.json({ ...CommandSender.answer(reply), deletedCount: 1 });
  });

  r.put('/user/seller_verified/:id', async (req, res) => {
    withRole(req, 'Admin');
    const id = idParam(req.params.id, 'User');
    const reply = await sender.send(req, { service: 'identity', type: 'VerifySeller', aggregateId: id, data: {} });
    res.json(CommandSender.answer(reply));
  });
  return r;
}
