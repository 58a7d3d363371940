import { createLogger } from '@tv-shop/platform';
import { IMAGE_ID, type ImageStore } from './image-store';

const log = createLogger('images');

/** Where the read models' picture addresses come from: each service's query (the gateway's ReadModels). */
export interface ImageReferences {
  imageUrls(): Promise<string[]>;
}

/** The image ids the read models refer to (`/api/images/<id>`, relative or absolute). */
export async function referencedImages(reads: ImageReferences): Promise<Set<string>> {
  const ids = new Set<string>();
  const pattern = new RegExp(`/api/images/(${IMAGE_ID.source})`);
  for (const url of await reads.imageUrls()) {
    const m = pattern.exec(url);
    if (m) ids.add(m[1]!);
  }
  return ids;
}

/**
 * Removes uploads older than `olderThanMs` that no product, user or booking refers to: pictures
 * uploaded for a listing or profile that was never saved, or replaced since. A young upload is
 * kept, since its form may still be on its way. If the references cannot be read, nothing goes.
 */
export async function sweepUnreferencedImages(
  images: ImageStore,
  reads: ImageReferences,
  olderThanMs: number,
  now = Date.now(),
): Promise<{ removed: string[]; kept: number }> {
  const stored = await images.list();
  const old = stored.filter((s) => now - s.storedAt.getTime() >= olderThanMs);
  if (old.length === 0) return { removed: [], kept: stored.length };
  const referenced = await referencedImages(reads);
  const removed: string[] = [];
  for (const { id } of old) {
    if (referenced.has(id)) continue;
    await images.remove(id);
    removed.push(id);
  }
  if (removed.length > 0) log.info('removed unreferenced uploads', { count: removed.length });
  return { removed, kept: stored.length - removed.length };
}

/** Sweeps now and then; a failed sweep is logged and tried again next time. */
export function startImageSweeper(images: ImageStore, reads: ImageReferences, opts: { retentionHours: number; everyMinutes: number }) {
  let running: Promise<unknown> | null = null;
  const sweep = () => {
    running ??= sweepUnreferencedImages(images, reads, opts.retentionHours * 3_600_000)
      .catch((err: unknown) => log.warn('image sweep failed; nothing removed', err))
      .finally(() => (running = null));
  };
  // Node runs a longer delay than 2^31-1 ms (24.8 days) at once, every millisecond: cap it there.
  const timer = setInterval(sweep, Math.min(opts.everyMinutes * 60_000, 2 ** 31 - 1));
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
