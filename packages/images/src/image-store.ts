import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The image port: local files now; an S3-compatible adapter later keeps the same shape. */
export interface ImageStore {
  put(bytes: Buffer, contentType: ImageType): Promise<string>;
  get(id: string): Promise<{ bytes: Buffer; contentType: ImageType } | null>;
  /** Every stored image with when it was stored (for the sweep of unreferenced uploads). */
  list(): Promise<{ id: string; storedAt: Date }[]>;
  remove(id: string): Promise<void>;
}

/** An image id as it appears in `/api/images/<id>`. */
export const IMAGE_ID = /[0-9a-f]{40}\.(?:png|jpg|gif|webp)/;
const WHOLE_ID = new RegExp(`^${IMAGE_ID.source}$`);

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
const EXT: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const TYPE_OF_EXT = Object.fromEntries(Object.entries(EXT).map(([t, e]) => [e, t])) as Record<string, ImageType>;

/** What the bytes say the file is, whatever its name claims. */
export function sniffImage(b: Buffer): ImageType | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** The id of an image: its content's hash and its type's extension, so the same bytes are stored once. */
export const imageIdOf = (bytes: Buffer, contentType: ImageType): string =>
  `${createHash('sha256').update(bytes).digest('hex').slice(0, 40)}.${EXT[contentType]}`;

/** What an id says the image's type is; null for anything that is not an image id. */
export function imageTypeOf(id: string): ImageType | null {
  const m = /^[0-9a-f]{40}\.(png|jpg|gif|webp)$/.exec(id);
  return m ? TYPE_OF_EXT[m[1]!]! : null;
}

/** Content-addressed files: the same image uploaded twice is stored once under one id. */
export class LocalImageStore implements ImageStore {
  constructor(private readonly dir: string) {}

  async put(bytes: Buffer, contentType: ImageType): Promise<string> {
    const id = imageIdOf(bytes, contentType);
    await mkdir(this.dir, { recursive: true });
    // A temp file of its own, renamed into place atomically: identical uploads at the same moment
    // each write their own file and the last rename wins with the same bytes.
    const tmp = path.join(this.dir, `.${id}.${randomUUID()}.tmp`);
    try {
      await writeFile(tmp, bytes, { flag: 'wx' });
      await rename(tmp, path.join(this.dir, id));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return id;
  }

  async list(): Promise<{ id: string; storedAt: Date }[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: { id: string; storedAt: Date }[] = [];
    for (const id of names.filter((n) => WHOLE_ID.test(n))) {
      const s = await stat(path.join(this.dir, id)).catch(() => null);
      if (s) out.push({ id, storedAt: s.mtime });
    }
    return out;
  }

  async remove(id: string): Promise<void> {
    if (WHOLE_ID.test(id)) await rm(path.join(this.dir, id), { force: true });
  }

  async get(id: string): Promise<{ bytes: Buffer; contentType: ImageType } | null> {
    const contentType = imageTypeOf(id);
    if (!contentType) return null;
    try {
      return { bytes: await readFile(path.join(this.dir, id)), contentType };
    } catch {
      return null;
    }
  }
}
