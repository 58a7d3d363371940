import { Router } from 'express';
import { GoogleLoginBody, LoginBody, SignupBody, streams, type AuthAnswer, type User } from '@tv-shop/contracts';
import { AppError, conflict, unauthorized, uuidFromName } from '@tv-shop/platform';
import { checkPassword, hashPassword } from '../auth/passwords';
import { signedIn } from '../auth/middleware';
import type { GatewayDeps } from '../deps';
import { parse, queryParam } from '../http/validate';

/** A user's id follows from their email, so one email can only ever register one stream. */
export const userIdFor = (email: string) => uuidFromName(`user:${email.trim().toLowerCase()}`);

export function authRoutes({ reads, sender, tokens, verifyGoogle, store }: GatewayDeps): Router {
  const r = Router();
  const answer = (user: User): AuthAnswer => ({ token: tokens.sign({ sub: user._id, email: user.email, role: user.role }), user });
  const loadUser = async (id: string) => {
    const user = await reads.userById(id);
    if (!user) throw new AppError('conflict', 'The account is not available yet; try again');
    return user;
  };

  r.post('/auth/signup', async (req, res) => {
    const body = parse(SignupBody, req.body);
    const userId = userIdFor(body.email);
    const passwordHash = await hashPassword(body.password);
    await sender.send(req, {
      service: 'identity',
      type: 'RegisterUser',
      aggregateId: userId,
      data: { userId, name: body.name, email: body.email, role: body.role, photoURL: body.photoURL ?? '', passwordHash, via: 'password' },
    });
    res.status(201).json(answer(await loadUser(userId)));
  });

  r.post('/auth/login', async (req, res) => {
    const body = parse(LoginBody, req.body);
    const found = await reads.credentials(body.email);
    if (!(await checkPassword(found?.passwordHash, body.password)) || !found)
      throw new AppError('unauthorized', 'Wrong email or password', { field: 'password' });
    res.json(answer(found.user));
  });

  r.post('/auth/google', async (req, res) => {
    const { idToken } = parse(GoogleLoginBody, req.body);
    const who = await verifyGoogle(idToken);
    let user = await reads.userByEmail(who.email);
    if (!user) {
      const userId = userIdFor(who.email);
      if ((await store.readStream(streams.user(userId))).length > 0) throw conflict('The account with this email was deleted', 'email');
      // Google sign-in always creates a Buyer (spec section 6).
      await sender.send(req, {
        service: 'identity',
        type: 'RegisterUser',
        aggregateId: userId,
        commandId: uuidFromName(`google-signup:${userId}`),
        data: { userId, name: who.name, email: who.email, role: 'Buyer', photoURL: who.picture, passwordHash: null, via: 'google' },
      });
      user = await loadUser(userId);
    }
    res.json(answer(user));
  });

  // The spec's token call: only ever refreshes the token of the person already signed in.
  r.get('/jwt', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const user = signedIn(req);
    if (user.email !== email) throw unauthorized('A token is only issued to the account that is signed in');
    res.json({ token: answer(user).token });
  });
  return r;
}
