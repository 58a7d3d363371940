import sharp from 'sharp';
import { AppError } from '@tv-shop/platform';
import { sniffImage, type ImageType } from './image-store';

/** The longest side a stored picture keeps; larger ones are scaled down to it. */
export const MAX_IMAGE_SIDE = 2560;
/** Refused before decoding: a small file can claim a huge canvas (a decompression bomb). */
export const MAX_INPUT_PIXELS = 50_000_000;

sharp.cache(false);

export interface ProcessedImage {
  bytes: Buffer;
  type: ImageType;
  width: number;
  height: number;
}

const unreadable = () =>
  new AppError('unsupported_media_type', 'The file is not a PNG, JPEG, GIF or WebP image that can be read', { field: 'image' });

/**
 * Decodes the whole upload with libvips (sharp) and writes it out again: a file that only looks
 * like an image is refused, EXIF/XMP/ICC metadata (a phone's GPS position among it) is dropped,
 * the picture is turned upright from its EXIF orientation, and its longest side is capped.
 * The stored bytes are therefore always ones we produced.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const type = sniffImage(input);
  if (!type) throw unreadable();
  const animated = type === 'image/gif' || type === 'image/webp';
  try {
    let img = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated });
    // Orientation lives in the metadata that is about to be dropped; apply it to the pixels first.
    if (type === 'image/jpeg') img = img.rotate();
    img = img.resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
    if (type === 'image/png') img = img.png({ compressionLevel: 9 });
    else if (type === 'image/jpeg') img = img.jpeg({ quality: 85, mozjpeg: true });
    else if (type === 'image/webp') img = img.webp({ quality: 85 });
    else img = img.gif();
    const { data, info } = await img.toBuffer({ resolveWithObject: true });
    return { bytes: data, type, width: info.width, height: info.pageHeight ?? info.height };
  } catch {
    throw unreadable();
  }
}
