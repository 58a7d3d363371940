import { MAX_LISTING_PHOTOS } from '@tv-shop/contracts';

// Loaded when the seller first chooses photos, not with the form (the edit page is near its size budget).

/** How the picture types the shop stores begin (PNG, JPEG, GIF, WebP: "RIFF", 4 bytes, "WEBP"); null matches any byte. */
const SIGNATURES: (number | null)[][] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
];

/**
 * Whether a file the browser calls an image begins as a picture the shop can take: a text file
 * named `.png` does not, and the server would refuse it only after the upload. A browser that
 * cannot read the bytes leaves it to the server.
 */
async function startsLikeAPicture(file: File): Promise<boolean> {
  const head = await file
    .slice(0, 12)
    .arrayBuffer()
    .then(
      (bytes) => new Uint8Array(bytes),
      () => null,
    );
  if (!head) return true;
  return SIGNATURES.some((signature) => signature.every((byte, i) => byte === null || head[i] === byte));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface PhotoChoice {
  /** The pictures to add, in the order chosen. */
  taken: File[];
  /** What was left out: files that are not pictures, named, and photos past the most a listing holds; null when nothing was. */
  refused: string | null;
  /** What was added; null when nothing was. */
  said: string | null;
}

/**
 * A choice of files sorted beside the `kept` photos: a file that is not a picture is left out
 * when chosen, and named, not refused at submit. `isImage` is the form's own check of the type
 * the browser gives by the name; the first bytes are checked after it.
 */
export async function sortChoice(chosen: File[], kept: number, isImage: (file: File) => boolean): Promise<PhotoChoice> {
  const ok = await Promise.all(chosen.map(async (file) => isImage(file) && (await startsLikeAPicture(file))));
  const picked = chosen.filter((_, i) => ok[i]);
  const notPictures = chosen.filter((_, i) => !ok[i]).map((file) => file.name);
  const taken = picked.slice(0, MAX_LISTING_PHOTOS - kept);
  const left = picked.length - taken.length;
  // What was left out is shown (an alert), not only said: a seller who chose ten sees why two are missing.
  const leftOut = [
    notPictures.length > 0 ? `Not a photo this browser can read, so not added: ${notPictures.join(', ')}.` : null,
    left > 0 ? `A listing holds ${MAX_LISTING_PHOTOS} photos; ${plural(left, 'photo')} not added.` : null,
  ].filter((text): text is string => text !== null);
  return {
    taken,
    refused: leftOut.length > 0 ? leftOut.join(' ') : null,
    said: taken.length === 0 ? null : `${plural(taken.length, 'photo')} added.`,
  };
}
