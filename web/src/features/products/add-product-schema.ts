/**
 * The server's schema of a new listing (packages/contracts), on its own so Add Product can fetch
 * it, and zod with it, when the form first checks a field rather than with the page (ADR 0043).
 */
export { AddProductBody } from '@tv-shop/contracts';
