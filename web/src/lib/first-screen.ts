/**
 * When the first screen is done: the document has loaded, the first page has mounted, the reads
 * it started with have answered, and React has drawn them (the browser is then idle). Work that the first
 * screen does not need, like opening the live connection, waits for it, so a slow phone spends
 * its network and CPU on the page's own code, data and photos first (ADR 0043).
 */
let pending = 0;
const waiting = new Set<() => void>();
let pageMounted = false;
const mountWaiting = new Set<() => void>();

/**
 * The router's page has mounted (its code arrived, its reads started): called from an effect
 * beside the page, which runs before the page's own, so the check waits a turn for those.
 */
export function notePageMounted(): void {
  if (pageMounted) return;
  pageMounted = true;
  [...mountWaiting].forEach((resume) => resume());
}

/** A read the page is showing: the first screen is not done before it has answered. */
export function trackRead<T>(read: Promise<T>): Promise<T> {
  pending += 1;
  const done = () => {
    pending -= 1;
    if (pending === 0) [...waiting].forEach((resume) => resume());
  };
  read.then(done, done);
  return read;
}

/** Even with a read that never answers, the wait ends after this long. */
const MAX_WAIT_MS = 5000;
/** How long an idle moment is waited for once the reads are in. */
const IDLE_WAIT_MS = 1000;

/** Runs `run` once the first screen is done (see above); answers a function that cancels it. */
export function afterFirstScreen(run: () => void): () => void {
  let cancelled = false;
  let cleanup = () => undefined as void;
  const give = (next: () => void) => {
    cleanup = next;
  };
  const fire = () => {
    if (cancelled) return;
    cancelled = true;
    cleanup();
    run();
  };
  const deadline = setTimeout(fire, MAX_WAIT_MS);
  const whenIdle = () => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(fire, { timeout: IDLE_WAIT_MS });
      give(() => cancelIdleCallback(id));
    } else {
      const id = setTimeout(fire, 0);
      give(() => clearTimeout(id));
    }
  };
  const whenRead = () => {
    if (pending === 0) return whenIdle();
    const resume = () => {
      waiting.delete(resume);
      // The answer is drawn in the same turn or the next: wait for that before looking idle.
      setTimeout(whenRead, 0);
    };
    waiting.add(resume);
    give(() => waiting.delete(resume));
  };
  const whenMounted = () => {
    if (pageMounted) return void setTimeout(whenRead, 0);
    const resume = () => {
      mountWaiting.delete(resume);
      setTimeout(whenRead, 0);
    };
    mountWaiting.add(resume);
    give(() => mountWaiting.delete(resume));
  };
  if (document.readyState === 'complete') whenMounted();
  else {
    window.addEventListener('load', whenMounted, { once: true });
    give(() => window.removeEventListener('load', whenMounted));
  }
  return () => {
    if (cancelled) return;
    cancelled = true;
    clearTimeout(deadline);
    cleanup();
  };
}
