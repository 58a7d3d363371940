import cors from 'cors';

/** The methods and headers the API is called with; a preflight answers exactly these. */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** What a page on another origin may read from an answer besides the simple headers. */
const EXPOSED_HEADERS = ['X-Position', 'X-Read-Models', 'Retry-After', 'X-Request-Id'];

/**
 * Whether a page on `origin` may call us. With no list, only the app's own origin may (the
 * browser never asks for that one); `*` allows every origin. Tokens travel in the Authorization
 * header, never in cookies, so credentials are never allowed.
 */
export const originAllowed = (allowed: string[]) => (origin: string | undefined) =>
  origin !== undefined && (allowed.includes('*') || allowed.includes(origin.toLowerCase()));

/** CORS for /api and, with the same rules, the Socket.IO endpoint. */
export function corsOptions(allowed: string[]): cors.CorsOptions {
  const ok = originAllowed(allowed);
  return {
    // A refused origin gets no Access-Control-Allow-Origin at all, so its browser keeps the answer from the page.
    origin: (origin, done) => done(null, ok(origin)),
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
  };
}

export const apiCors = (allowed: string[]) => cors(corsOptions(allowed));
