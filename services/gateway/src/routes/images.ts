import { Router, type RequestHandler } from 'express';
import type { ImageUploadAnswer } from '@tv-shop/contracts';
import multer from 'multer';
import { AppError, notFound } from '@tv-shop/platform';
import type { GatewayDeps } from '../deps';
import { clientKey, rateLimit } from '../http/rate-limit';
import { processImage, thumbnailOf } from '@tv-shop/images';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** What multer's limits mean to the person uploading: each a 4xx naming the part at fault. */
const MULTER_ERRORS: Record<string, () => AppError> = {
  LIMIT_FILE_SIZE: () => new AppError('payload_too_large', 'The image is larger than 5 MB', { field: 'image' }),
  LIMIT_FILE_COUNT: () => new AppError('validation', 'Send one image at a time', { field: 'image' }),
  LIMIT_UNEXPECTED_FILE: () => new AppError('validation', 'Send the file in the field named image', { field: 'image' }),
  LIMIT_FIELD_COUNT: () => new AppError('validation', 'The form has too many fields; send only the image', { field: 'body' }),
  LIMIT_PART_COUNT: () => new AppError('validation', 'The form has too many parts; send only the image', { field: 'body' }),
  LIMIT_FIELD_KEY: () => new AppError('validation', 'A form field name is too long', { field: 'body' }),
  LIMIT_FIELD_VALUE: () => new AppError('payload_too_large', 'A form field is too long', { field: 'body' }),
};

/**
 * The image host of the spec: multipart field `image` in, `{ success, data: { url } }` out, and
 * (ours) `data.thumbnailUrl`, a small copy for cards.
 */
export function imageRoutes({ images, config }: GatewayDeps): Router {
  const r = Router();
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 8 * 1024, fieldNameSize: 100 },
  });

  const single = upload.single('image');
  const receive: RequestHandler = (req, res, next) =>
    single(req, res, (err: unknown) => {
      if (!err) return next();
      const code = (err as { code?: string }).code ?? '';
      // Anything multer does not name is a broken form.
      next(MULTER_ERRORS[code]?.() ?? new AppError('validation', 'The upload is not a readable multipart form', { field: 'image' }));
    });

  // Uploads are open to visitors (signup needs a photo before the account exists), so they are
  // limited per account and per client address: a new account does not buy a new quota.
  const { uploads } = config.limits;
  const perClient = rateLimit({
    name: 'upload-client',
    windowMs: uploads.windowMs,
    limit: uploads.perClient,
    key: clientKey,
    detail: 'Too many uploads from this network',
    field: 'image',
  });
  const perAccount = rateLimit({
    name: 'upload-account',
    windowMs: uploads.windowMs,
    limit: uploads.perAccount,
    key: (req) => req.user?._id ?? null,
    detail: 'Too many uploads from this account',
    field: 'image',
  });
  r.post('/images', perClient, perAccount, receive, async (req, res) => {
    if (!req.file) throw new AppError('validation', 'Send an image file in the field named image', { field: 'image' });
    // Decoded, upright, metadata stripped, longest side capped: what is stored is what we wrote.
    const image = await processImage(req.file.buffer);
    // Cards show the thumbnail; a listing that refers to neither loses both to the sweep.
    const thumbnail = await thumbnailOf(image);
    const [id, thumbnailId] = await Promise.all([images.put(image.bytes, image.type), images.put(thumbnail.bytes, thumbnail.type)]);
    const answer: ImageUploadAnswer = { success: true, data: { url: `/api/images/${id}`, thumbnailUrl: `/api/images/${thumbnailId}` } };
    res.status(201).json(answer);
  });

  r.get('/images/:id', async (req, res) => {
    const img = await images.get(String(req.params.id));
    if (!img) throw notFound('Image');
    res
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .set('X-Content-Type-Options', 'nosniff')
      // Product pictures are public: a page on another origin (CORS_ORIGINS) may show them.
      .set('Cross-Origin-Resource-Policy', 'cross-origin')
      .type(img.contentType)
      .send(img.bytes);
  });
  return r;
}
