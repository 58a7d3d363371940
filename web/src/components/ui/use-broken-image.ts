import { useState } from 'react';

/**
 * Whether the photo at `src` failed to load (an address from elsewhere that is gone, say), and the
 * `onError` that notes it. Keyed by address: a new photo is tried again.
 */
export function useBrokenImage(src: string | undefined) {
  const [failed, setFailed] = useState<string | null>(null);
  return { broken: src !== undefined && failed === src, onError: () => setFailed(src ?? null) };
}
