import { Router } from 'express';
import { GoogleLoginBody, LoginBody, SignupBody, type AuthAnswer, type User } from '@tv-shop/contracts';
import { passwordSignUp, signInWithGoogleRequest } from '@tv-shop/identity';
import { AppError, forbidden } from '@tv-shop/platform';
import { signedIn } from '../auth/middleware';
import type { GatewayDeps } from '../deps';
import { clientKey, emailKey, rateLimit } from '../http/rate-limit';
import { parse, queryParam } from '../http/validate';

/**
 * Sign-up and sign-in. Which account a credential opens, and what a new account is, are
 * identity's to say; here the requests are parsed, rate-limited, sent and answered with a token.
 */
export function authRoutes({ reads, sender, tokens, verifyGoogle, config }: GatewayDeps): Router {
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
    const user = await reads.identity.userById(id);
    if (!user) throw new AppError('conflict', 'The account is not available yet; try again');
    return user;
  };

  r.post('/auth/signup', signupPerClient, signupPerAccount, async (req, res) => {
    const signup = await passwordSignUp(parse(SignupBody, req.body));
    await sender.send(req, signup);
    res.status(201).json(answer(await loadUser(signup.aggregateId)));
  });

  r.post('/auth/login', loginPerClient, loginPerAccount, async (req, res) => {
    const body = parse(LoginBody, req.body);
    const user = await reads.identity.verifyPassword(body.email, body.password);
    if (!user) throw new AppError('unauthorized', 'Wrong email or password', { field: 'password' });
    res.json(answer(user));
  });

  r.post('/auth/google', loginPerClient, async (req, res) => {
    const { idToken } = parse(GoogleLoginBody, req.body);
    // The token is checked here, at the edge; identity says which account it opens (and opens it the first time).
    const { result } = await sender.send(req, signInWithGoogleRequest(await verifyGoogle(idToken)));
    res.json(answer(await loadUser(result.userId)));
  });

  // The spec's token call: only ever refreshes the token of the person already signed in.
  r.get('/jwt', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const user = signedIn(req);
    if (user.email !== email) throw forbidden('A token is only issued to the account that is signed in');
    res.json({ token: answer(user).token });
  });
  return r;
}
