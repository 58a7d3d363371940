import { useEffect, useRef } from 'react';

/**
 * Whether the calling component is still mounted, for work that ends after an await (an answer
 * that arrives once its dialog or page is gone must not act on what replaced it).
 */
export function useMounted(): { readonly current: boolean } {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
