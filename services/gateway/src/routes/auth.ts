import { Router } from 'express';
import { GoogleLoginBody, LoginBody, SignupBody, streams, type AuthAnswer, type User } from '@tv-shop/contracts';
import { foldUser, googleMayAttach } from '@tv-shop/identity';
import { AppError, conflict, unauthorized, uuidFromName } from '@tv-shop/platform';
import { checkPassword, hashPassword } from '../auth/passwords';
import { signedIn } from '../auth/middleware';
import type { GatewayDeps } from '../deps';
import { clientKey, emailKey, rateLimit } from '../http/rate-limit';
import { parse, queryParam } from '../http/validate';

/** A user's id follows from their email, so one email can only ever register one stream. */
export const userIdFor = (email: string) => uuidFromName(`user:${email.trim().toLowerCase()}`);

export function authRoutes({ reads, sender, tokens, verifyGoogle, store, config }: GatewayDeps): Router {
  const r = Router();
  // Password guessing: failed sign-ins are limited per account and per client address; signups
  // (which also tell whether an email is taken) per email and per address. ADR 0020.
  const { auth } = config.limits;
  const limit = (name: string, n: number, key: typeof clientKey | typeof emailKey, detail: string, field: string, failuresOnly = false) =>
    rateLimit({ name, windowMs: auth.windowMs, limit: n, key, detail, field, failuresOnly });
  const loginPerAccount = limit(
    'login-account',
    auth.loginFailuresPerAccount,
    emailKey,
    'Too many failed sign-ins for this account; try again later',
    'password',
    true,
  );
  const loginPerClient = limit(
    'login-client',
    auth.loginFailuresPerClient,
    clientKey,
    'Too many failed sign-ins from this address; try again later',
    'password',
    true,
  );
  const signupPerAccount = limit(
    'signup-account',
    auth.signupPerAccount,
    emailKey,
    'Too many signups for this email; try again later',
    'email',
  );
  const signupPerClient = limit(
    'signup-client',
    auth.signupPerClient,
    clientKey,
    'Too many signups from this address; try again later',
    'email',
  );
  const answer = (user: User): AuthAnswer => ({ token: tokens.sign({ sub: user._id, email: user.email, role: user.role }), user });
  const loadUser = async (id: string) => {
    const user = await reads.userById(id);
    if (!user) throw new AppError('conflict', 'The account is not available yet; try again');
    return user;
  };

  r.post('/auth/signup', signupPerClient, signupPerAccount, async (req, res) => {
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

  r.post('/auth/login', loginPerClient, loginPerAccount, async (req, res) => {
    const body = parse(LoginBody, req.body);
    const found = await reads.credentials(body.email);
    if (!(await checkPassword(found?.passwordHash, body.password)) || !found)
      throw new AppError('unauthorized', 'Wrong email or password', { field: 'password' });
    res.json(answer(found.user));
  });

  r.post('/auth/google', loginPerClient, async (req, res) => {
    const { idToken } = parse(GoogleLoginBody, req.body);
    const who = await verifyGoogle(idToken);
    const userId = userIdFor(who.email);
    // The stream, not the read model, says how the account was opened: Google signs in only to an
    // account opened with Google, never to a password account with the same email (ADR 0021).
    const attach = googleMayAttach(foldUser(await store.readStream(streams.user(userId))));
    if (attach === 'deleted') throw conflict('The account with this email was deleted', 'email');
    if (attach === 'password-account')
      throw new AppError(
        'conflict',
        'An account with this email signs in with a password; use your email and password. If you did not open it, contact the admin.',
        { field: 'email' },
      );
    let user = attach === 'yes' ? await loadUser(userId) : null;
    if (!user) {
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
