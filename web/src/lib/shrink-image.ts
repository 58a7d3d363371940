/**
 * Photos are shrunk in the browser before upload: a phone's 4000x3000 JPEG of 7 MB is over the
 * server's 5 MB limit, and the server keeps at most 2,560 px of it anyway (ADR 0034).
 */
export const SHRINK = {
  /** The longest side the server keeps. */
  maxSide: 2560,
  /** What we send at most: under the server's 5 MB with room for the form around it. */
  maxBytes: 4.5 * 1024 * 1024,
  /** A photo already this small and within maxSide goes as it is: re-encoding it would only lose detail. */
  keepBytes: 1.5 * 1024 * 1024,
};
export type ShrinkLimits = typeof SHRINK;

/** A decoded picture, upright (its EXIF orientation applied). */
export interface Decoded {
  width: number;
  height: number;
  close(): void;
}

/** How pictures are decoded and encoded: the browser's canvas, or a stand-in in tests. */
export interface ImageCodec<D extends Decoded = Decoded> {
  /** Null when the browser cannot read the file; the server then says what is wrong with it. */
  decode(file: Blob): Promise<D | null>;
  /** The picture drawn at width x height on white (JPEG has no transparency), as a JPEG. */
  encodeJpeg(image: D, width: number, height: number, quality: number): Promise<Blob>;
}

/** The first encoding that fits maxBytes wins: lower quality first, then fewer pixels. */
const ATTEMPTS = [
  { side: 1, quality: 0.85 },
  { side: 1, quality: 0.7 },
  { side: 0.75, quality: 0.7 },
  { side: 0.5, quality: 0.6 },
];
/** Types the server stores as they come, so a small one needs no re-encoding. */
const KEPT_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** width x height scaled down (never up) so that the longest side is at most maxSide. */
export function fitInside(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const jpegName = (name: string) => `${name.replace(/\.[^./]*$/, '') || 'photo'}.jpg`;

/**
 * The photo as it should be uploaded: upright, longest side at most 2,560 px, a JPEG under
 * 4.5 MB. A GIF that fits goes as it is (the server keeps its animation and caps its size); a
 * larger one goes as a JPEG of its first frame, as the browser decodes a GIF: a TV's photo needs
 * no animation. A file the browser cannot read or cannot bring under the limit goes as it is,
 * for the server to refuse with its reason.
 */
export async function shrinkImage<D extends Decoded>(file: File, codec: ImageCodec<D>, limits: ShrinkLimits = SHRINK): Promise<File> {
  if (file.type === 'image/gif' && file.size <= limits.maxBytes) return file;
  const image = await codec.decode(file);
  if (!image) return file;
  try {
    const fits = Math.max(image.width, image.height) <= limits.maxSide;
    if (fits && file.size <= limits.keepBytes && KEPT_TYPES.has(file.type)) return file;
    for (const attempt of ATTEMPTS) {
      const { width, height } = fitInside(image.width, image.height, limits.maxSide * attempt.side);
      const blob = await codec.encodeJpeg(image, width, height, attempt.quality);
      if (blob.size <= limits.maxBytes)
        return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
    }
    return file;
  } finally {
    image.close();
  }
}

function canvasOf(width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function toJpeg(canvas: OffscreenCanvas | HTMLCanvasElement, quality: number): Promise<Blob> {
  if (!('toBlob' in canvas)) return canvas.convertToBlob({ type: 'image/jpeg', quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be encoded.'))), 'image/jpeg', quality),
  );
}

/** The browser's own decoder and canvas. */
export const browserCodec: ImageCodec<ImageBitmap> = {
  // A browser without createImageBitmap sends the file as it is.
  decode: async (file) =>
    typeof createImageBitmap === 'function' ? createImageBitmap(file, { imageOrientation: 'from-image' }).catch(() => null) : null,
  async encodeJpeg(bitmap, width, height, quality) {
    const canvas = canvasOf(width, height);
    // What getContext on the union answers depends on the order the checker met the DOM's
    // overloads in: needed for tsc, "unnecessary" to a whole-project lint on some days.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!context) throw new Error('The photo could not be drawn.');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    return toJpeg(canvas, quality);
  },
};
