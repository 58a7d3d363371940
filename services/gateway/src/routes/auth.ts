import { Router } from 'express';
import {
  ChangePasswordBody,
  GoogleLoginBody,
  LoginBody,
  SESSION_REFUSED,
  SignupBody,
  type AuthAnswer,
  type PasswordChangedAnswer,
  type User,
} from '@tv-shop/contracts';
import { hashPassword, passwordSignUp, signInWithGoogleRequest, type Credentials } from '@tv-shop/identity';
import { AppError, forbidden, unauthorized } from '@tv-shop/platform';
import { signedIn } from '../auth/middleware';
import { CommandSender } from '../commands';
import type { GatewayDeps } from '../deps';
import { clientKey, emailKey, rateLimit, type LimitOptions } from '../http/rate-limit';
import { parse, queryParam } from '../http/validate';

/** A signup stored while the read models lag behind it (503: sent again with its key, it answers once they caught up). */
export const READ_MODELS_BEHIND = {
  accountOpened: 'Your account is open, but this server has not caught up with it yet; log in in a moment',
  retryAfterS: 5,
} as const;

/**
 * Sign-up and sign-in. Which account a credential opens, and what a new account is, are
 * identity's to say; here the requests are parsed, rate-limited, sent and answered with a token.
 */
export function authRoutes({ reads, sender, tokens, verifyGoogle, config }: GatewayDeps): Router {
  const r = Router();
  // Password guessing: failed sign-ins are limited per account and per client address; signups
  // (which also tell whether an email is taken) per email and per address. ADR 0020.
  const { auth } = config.limits;
  const limit = (
    name: string,
    n: number,
    key: LimitOptions['key'],
    detail: string,
    field: string,
    failuresOnly = false,
    failedWhen?: (status: number) => boolean,
  ) => rateLimit({ name, windowMs: auth.windowMs, limit: n, key, detail, field, failuresOnly, ...(failedWhen ? { failedWhen } : {}) });
  // A sign-in the server could not answer (503: an outage, or an account it has not caught up
  // with yet) is not a guess, and a client's retries of it spend nobody's budget.
  const guessed = (status: number) => status >= 400 && status < 500;
  // Per account from one address, so someone failing on purpose elsewhere does not keep its owner
  // out; and per account from everywhere, ten times as many, so guesses spread over many addresses
  // still stop. In that order on the route: each limit counts a request before it checks, and a
  // 429 further on is a failure to those before it, so a try the first refuses must not reach the
  // second (one address would then spend the account's count from everywhere).
  const accountFromClient: LimitOptions['key'] = (req) => {
    const email = emailKey(req);
    return email === null ? null : `${clientKey(req)} ${email}`;
  };
  const loginPerAccount = limit(
    'login-account',
    auth.loginFailuresPerAccount,
    accountFromClient,
    'Too many failed sign-ins for this account from this network',
    'password',
    true,
    guessed,
  );
  const loginPerAccountAnywhere = limit(
    'login-account-anywhere',
    auth.loginFailuresPerAccountAnywhere,
    emailKey,
    'Too many failed sign-ins for this account',
    'password',
    true,
    guessed,
  );
  const loginPerClient = limit(
    'login-client',
    auth.loginFailuresPerClient,
    clientKey,
    'Too many failed sign-ins from this network',
    'password',
    true,
    guessed,
  );
  const signupPerAccount = limit('signup-account', auth.signupPerAccount, emailKey, 'Too many signups for this email', 'email');
  const signupPerClient = limit('signup-client', auth.signupPerClient, clientKey, 'Too many signups from this network', 'email');
  /** A token stamped with the credentials the sign-in was proven against (ADRs 0060, 0062). */
  const tokenFor = (user: User, { passwordHash, sessionsEnded }: Credentials): AuthAnswer => ({
    token: tokens.sign({ sub: user._id, email: user.email, role: user.role, passwordHash, sessionsEnded }),
    user,
  });
  /**
   * An account just opened (a signup, Google's first sign-in), stamped as the read model has it.
   * Missing there, the read models are behind the write (it is stored): a 503 that says so, not a
   * 409, since a second signup would only find the account taken.
   */
  const answer = async (id: string): Promise<AuthAnswer> => {
    const account = await reads.identity.sessionAccount(id);
    if (!account) throw new AppError('unavailable', READ_MODELS_BEHIND.accountOpened, { retryAfter: READ_MODELS_BEHIND.retryAfterS });
    return tokenFor(account.user, account);
  };
  // A wrong current password (403) counts like a failed sign-in: per sign-in session of the
  // account (its refreshes included, whatever address it comes from; someone holding a stolen
  // session cannot spend its owner's budget, nor get a new one without the password) and per
  // address. A mistyped form (400) does not count.
  const accountKey = (req: Parameters<typeof clientKey>[0]) => (req.user ? `${req.user._id}:${req.tokenSessionId ?? 'none'}` : null);
  const wrongPassword = (status: number) => status === 403;
  const passwordPerAccount = limit(
    'password-account',
    auth.loginFailuresPerAccount,
    accountKey,
    'Too many wrong passwords for this account',
    'current_password',
    true,
    wrongPassword,
  );
  const passwordPerClient = limit(
    'password-client',
    auth.loginFailuresPerClient,
    clientKey,
    'Too many wrong passwords from this network',
    'current_password',
    true,
    wrongPassword,
  );

  r.post('/auth/signup', signupPerClient, signupPerAccount, async (req, res) => {
    const signup = await passwordSignUp(parse(SignupBody, req.body));
    await sender.send(req, signup);
    res.status(201).json(await answer(signup.aggregateId));
  });

  r.post('/auth/login', loginPerClient, loginPerAccount, loginPerAccountAnywhere, async (req, res) => {
    const body = parse(LoginBody, req.body);
    const account = await reads.identity.verifyPassword(body.email, body.password);
    if (!account) throw new AppError('unauthorized', 'Wrong email or password', { field: 'password' });
    res.json(tokenFor(account.user, account));
  });

  r.post('/auth/google', loginPerClient, async (req, res) => {
    const { idToken } = parse(GoogleLoginBody, req.body);
    // The token is checked here, at the edge; identity says which account it opens (and opens it the first time).
    const { result } = await sender.send(req, signInWithGoogleRequest(await verifyGoogle(idToken)));
    res.json(await answer(result.userId));
  });

  // The spec's token call: only ever refreshes the token of the person already signed in.
  r.get('/jwt', async (req, res) => {
    const email = queryParam(req.query, 'email').toLowerCase();
    const user = signedIn(req);
    if (user.email !== email) throw forbidden('A token is only issued to the account that is signed in');
    // Stamped as the token it refreshes: a token from before a password change never buys a new one.
    res.json({
      token: tokens.sign({
        sub: user._id,
        email: user.email,
        role: user.role,
        stamp: req.tokenStamp!,
        sessionId: req.tokenSessionId ?? null,
      }),
    });
  });

  /**
   * The signed-in account's own password, proven by the current one (ADR 0060). Every other
   * session of the account ends (its tokens and sockets stop working); this one goes on with the
   * new token in the answer.
   */
  r.put('/account/password', passwordPerAccount, passwordPerClient, async (req, res) => {
    const me = signedIn(req);
    const body = parse(ChangePasswordBody, req.body);
    const proven = await reads.identity.verifyPassword(me.email, body.current_password);
    if (!proven) {
      // No password matched: an account opened with Google has none to match (409), else it was wrong (403).
      const account = await reads.identity.sessionAccount(me._id);
      if (!account) throw unauthorized(SESSION_REFUSED.accountGone);
      if (account.passwordHash === null)
        throw new AppError('conflict', 'This account signs in with Google; it has no password to change', { field: 'current_password' });
      throw new AppError('forbidden', 'The current password is not right', { field: 'current_password' });
    }
    const passwordHash = await hashPassword(body.new_password);
    // Against the hash just checked: a change made meanwhile elsewhere makes this one a 409.
    const data = { passwordHash, replaces: proven.passwordHash };
    const reply = await sender.send(req, { service: 'identity', type: 'ChangePassword', aggregateId: me._id, data });
    // Stamped with the hash that stands: a repeated request (the same Idempotency-Key) hashed the
    // password again with another salt, and only the first hash was stored.
    const stored = await reads.identity.verifyPassword(me.email, body.new_password);
    if (!stored) {
      // The change is stored. Either the read models have not reached it yet, or another change
      // came right after it (409). Behind, no token can be issued that would work now: the
      // answer says the change stands (202) with none, and this session ends with the others
      // (the web app says so and opens the login page). Not a 503: a client would send it again
      // with the old token, which stops working as the read models catch up.
      if (!reply.behind)
        throw new AppError('conflict', 'The password was changed meanwhile; sign in with the new one', { field: 'new_password' });
      const accepted: PasswordChangedAnswer = { ...CommandSender.answer(reply), token: null };
      return void res.status(202).json(accepted);
    }
    const changed: PasswordChangedAnswer = {
      ...CommandSender.answer(reply),
      token: tokens.sign({
        sub: me._id,
        email: me.email,
        role: me.role,
        passwordHash: stored.passwordHash,
        sessionsEnded: stored.sessionsEnded,
        sessionId: req.tokenSessionId ?? null,
      }),
    };
    res.json(changed);
  });

  /**
   * Signs the account out everywhere (ADR 0062), this session included: every token issued to it
   * so far stops working, on every device and gateway, and its sockets are closed. No token is
   * issued: whoever asked signs in again, with the password or with Google. So a stolen token can
   * end the sessions once, its own with them, and can never keep the owner out.
   */
  r.delete('/account/sessions', async (req, res) => {
    const me = signedIn(req);
    const reply = await sender.send(req, { service: 'identity', type: 'EndSessions', aggregateId: me._id, data: {} });
    res.json(CommandSender.answer(reply));
  });

  /**
   * Log Out (ADR 0066): the session the request's token comes from ends, on every gateway: its
   * tokens, refreshed ones included, stop working and its sockets close. The account's other
   * sessions go on.
   */
  r.delete('/account/sessions/current', async (req, res) => {
    const me = signedIn(req);
    const sessionId = req.tokenSessionId;
    // A token from before sessions were named cannot be told from the account's others.
    if (!sessionId)
      throw new AppError('conflict', 'This token is from before sessions could be signed out one by one; use Sign out everywhere', {
        field: 'authorization',
      });
    // The retry key is this session's: another session of the account with the same key is another Log Out.
    const commandId = sender.commandId(req, sessionId);
    const reply = await sender.send(req, { service: 'identity', type: 'SignOut', aggregateId: me._id, data: { sessionId }, commandId });
    res.json(CommandSender.answer(reply));
  });
  return r;
}
