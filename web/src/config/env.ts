import { API_PREFIX, TOKEN_STORAGE_KEY } from '@tv-shop/contracts';

/**
 * The app talks only to its own origin (the gateway serves it, or Vite proxies to it), so
 * there is nothing to configure per deployment beyond these constants.
 */
export const env = {
  apiBase: API_PREFIX,
  tokenStorageKey: TOKEN_STORAGE_KEY,
  socketPath: '/socket.io',
  toastPosition: 'top-center',
} as const;
