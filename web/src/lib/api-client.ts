import { POSITION_HEADER, type Problem } from '@tv-shop/contracts';
import { env } from '@/config/env';
import { outageStatus, problemText } from './problem-text';
import { emailFromToken, isTokenOf, tokenStorage } from './token-storage';

export { fieldLabel, fieldSentence } from './problem-text';

/** A failed call, carrying the server's problem+json so the UI can say what went wrong. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
  }
  get status(): number {
    return this.problem.status;
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Public calls (categories, the token fetch) go without the bearer header. */
  auth?: boolean;
  query?: Record<string, string>;
  /** The call that changes this session's token: its own 401 ends the session at once (it waits for nothing). */
  changesToken?: boolean;
  /**
   * A write's Idempotency-Key, when the caller keeps one across the user's own tries of the same
   * request (a form sent again after "could not be reached"): the server then does it once. The
   * server scopes a key to the request's body, so a changed form is a new request all the same.
   */
  idempotencyKey?: string;
  /** The answer's body as a Blob (a download), not read as text: a large file is not held as a string. */
  asBlob?: boolean;
}

/** A list read, with the log position the server's read models had reached before it ran. */
export interface Positioned<T> {
  data: T;
  position: number;
}

let onSessionEnd: (refused: string, why: string | undefined) => void = () => undefined;

/**
 * A change of this session's token under way (a new password, ADR 0060): the server may refuse
 * the old token (a call, the live connection's session check) a moment before the answer with
 * the new one arrives. A 401 meanwhile waits for it, and ends nothing once the token changed.
 */
let tokenChange: Promise<unknown> | null = null;
export function whileTokenChanges<T>(change: Promise<T>): Promise<T> {
  const settled = change.finally(() => {
    if (tokenChange === settled) tokenChange = null;
  });
  // Its failure is the caller's to handle (they get `change`); this copy only marks the wait.
  settled.catch(() => undefined);
  tokenChange = settled;
  return change;
}

/**
 * How long a 401 waits for another tab of this browser to store a new token before it ends the
 * session: the server refuses the old token (this tab's call, its live connection's session
 * check) a moment before the tab that changed the password gets its answer and stores the new
 * one (ADR 0060). A session that truly ended is said so this much later.
 */
const OTHER_TAB_GRACE_MS = 2500;
const STORAGE_POLL_MS = 100;

/** Two tokens of the same account (by their email claim; an expired one is of none). */
const sameAccount = (a: string, b: string) => {
  const email = emailFromToken(b);
  return email !== null && isTokenOf(a, email);
};

/** Resolves once the stored token is no longer `token` (another tab stored a new one, or signed out), or after `ms`. */
function storedTokenChange(token: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const look = () => {
      if (tokenStorage.get() !== token || Date.now() - started >= ms) resolve();
      else setTimeout(look, STORAGE_POLL_MS);
    };
    look();
  });
}

/**
 * The app decides what an ended session means (sign out, say so, go to login); the client only
 * reports the token a 401 refused, with the server's reason (its detail) when it gave one, unless
 * the browser holds a newer token of the same account by then. Answers a function that unregisters.
 */
export function onSessionEnded(handler: (refused: string, why: string | undefined) => void): () => void {
  onSessionEnd = handler;
  return () => {
    if (onSessionEnd === handler) onSessionEnd = () => undefined;
  };
}

/** A random key; `randomUUID` exists only on secure pages (https, localhost), `getRandomValues` everywhere. */
export const newKey = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Log Out on the server (ADR 0066): the session `token` comes from ends there too, so a copy of
 * the token is worth nothing afterwards. `keepalive` lets it finish as the page goes; a 503 is
 * tried once more with the same key. Answers whether the session has ended there (a 401: it had
 * already); false when the server could not be told (offline), and the token then works until it
 * expires, as before.
 */
export async function endSessionOnServer(token: string): Promise<boolean> {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': newKey() };
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${env.apiBase}/account/sessions/current`, { method: 'DELETE', headers, keepalive: true }).catch(
      () => null,
    );
    if (response && (response.ok || response.status === 401)) return true;
    if (response?.status !== 503 || attempt >= 1) return false;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** How many times a write is sent again after a lost answer or a 503, 1 s then 2 s apart. */
const WRITE_RETRIES = 2;

async function send(path: string, options: RequestOptions): Promise<{ data: unknown; response: Response }> {
  const { method = 'GET', body, auth = true, query, changesToken = false, idempotencyKey } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = auth ? tokenStorage.get() : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined || method === 'PUT' || method === 'POST') {
    // The spec's status calls send a JSON content type with no body; keep that shape.
    headers['Content-Type'] = 'application/json';
    payload = body === undefined ? undefined : JSON.stringify(body);
  }

  const url = `${env.apiBase}${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
  // A write carries a key of its own and is sent again, with the same key, when the answer was
  // lost or was a 503: the server may have done it already (a service answered after the
  // gateway gave up), and the key makes the second try land once with the first one's answer.
  const write = method !== 'GET';
  if (write) headers['Idempotency-Key'] = idempotencyKey ?? newKey();
  let response: Response | null = null;
  for (let attempt = 0; ; attempt++) {
    response = await fetch(url, { method, headers, body: payload }).catch(() => null);
    if (!write || attempt >= WRITE_RETRIES || (response && response.status !== 503)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
  }
  if (!response) throw new ApiError({ type: 'about:blank', title: 'The server could not be reached.', status: 0 });
  // The connection can drop after the status line (a server cut a download short on a fault).
  const cutShort = () => new ApiError({ type: CUT_SHORT, title: 'The answer was cut short; nothing of it was kept.', status: 0 });
  if (options.asBlob && response.ok) {
    const blob = await response.blob().catch(() => null);
    if (!blob) throw cutShort();
    return { data: blob, response };
  }
  const text = await response.text().catch(() => null);
  if (text === null) throw cutShort();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const problem = toProblem(data, response);
    // Only the token still stored counts: a late answer to a call from an older session does not.
    if (response.status === 401 && token) {
      if (!changesToken) {
        // This tab's own change of token under way, else another tab's, seen in the shared storage.
        await tokenChange?.catch(() => undefined);
        if (tokenStorage.get() === token) await storedTokenChange(token, OTHER_TAB_GRACE_MS);
      }
      // A newer token of the same account is stored (a new password here or in another tab): the
      // session goes on with it. Anything else (the same token, none, another account's) ends it.
      const stored = tokenStorage.get();
      if (!(stored !== null && stored !== token && sameAccount(stored, token))) onSessionEnd(token, problem.detail);
    }
    throw new ApiError(problem);
  }
  return { data, response };
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { data } = await send(path, options);
  return data as T;
}

/** A GET whose rows go into a live store: the answer's position decides which rows are newer. */
export async function apiRead<T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Positioned<T>> {
  const { data, response } = await send(path, options);
  const position = Number(response.headers.get(POSITION_HEADER));
  return { data: data as T, position: Number.isFinite(position) ? position : 0 };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toProblem(data: unknown, response: Response): Problem {
  if (data && typeof data === 'object' && 'title' in data) return data as Problem;
  return { type: 'about:blank', title: response.statusText || 'Request failed', status: response.status };
}

/**
 * What to tell the user about a failure, as sentences: each bad field the server named
 * ("Phone number must have 6 to 15 digits."), else its detail, else its title.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return problemText(error.problem);
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/**
 * Logs a failure for whoever debugs the page, leaving out the server's answers about the request
 * itself (a 4xx: a wrong password, a taken email, a blank field), which the page already shows
 * the user in words: those are not errors of the page.
 */
export function logFailure(error: unknown): void {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
  console.error(error);
}

/** A failure of the network or of a struggling server (not an answer about the request itself). */
export function isOutage(error: unknown): boolean {
  return error instanceof ApiError && outageStatus(error.status);
}

/** The problem type of an answer whose connection dropped after its status line. */
const CUT_SHORT = 'urn:tv-shop:answer-cut-short';

/**
 * An answer cut short after its status line: an outage by its status (0), but the shop was reached
 * and may have done what was asked.
 */
export function answerCutShort(error: unknown): boolean {
  return error instanceof ApiError && error.problem.type === CUT_SHORT;
}
