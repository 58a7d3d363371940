import sharp from 'sharp';
import { AppError } from '@tv-shop/platform';
import { sniffImage, type ImageType } from './image-store';

/** The longest side a stored picture keeps; larger ones are scaled down to it. */
export const MAX_IMAGE_SIDE = 2560;
/**
 * The longest side of a thumbnail, the copy cards and lists show: a card is about 360 CSS px
 * wide on a phone, so this stays sharp on a 2x screen at a tenth of the photo's bytes.
 */
export const THUMBNAIL_SIDE = 720;
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

/**
 * A small WebP copy of a processed picture (one we wrote, so already upright and without
 * metadata): the first frame of an animation, transparency kept, never enlarged.
 */
export async function thumbnailOf(image: ProcessedImage): Promise<ProcessedImage> {
  const { data, info } = await sharp(image.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, type: 'image/webp', width: info.width, height: info.height };
}
