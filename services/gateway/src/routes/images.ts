import { Router, type RequestHandler } from 'express';
import type { ImageUploadAnswer } from '@tv-shop/contracts';
import multer from 'multer';
import { AppError, notFound } from '@tv-shop/platform';
import type { GatewayDeps } from '../deps';
import { rateLimit } from '../http/rate-limit';
import { sniffImage } from '../images/image-store';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image host of the spec: multipart field `image` in, `{ success, data: { url } }` out. */
export function imageRoutes({ images }: GatewayDeps): Router {
  const r = Router();
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5 } });

  const single = upload.single('image');
  const receive: RequestHandler = (req, res, next) =>
    single(req, res, (err: unknown) => {
      if (!err) return next();
      const code = (err as { code?: string }).code ?? '';
      // Size and field errors keep their own answers; anything else is a broken form.
      next(code.startsWith('LIMIT_') ? err : new AppError('validation', 'The upload is not a readable multipart form', { field: 'image' }));
    });

  // Uploads are open to visitors (signup needs a photo before the account exists), so they are limited.
  const limit = rateLimit({ windowMs: 10 * 60_000, max: 60 });
  r.post('/images', limit, receive, async (req, res) => {
    if (!req.file) throw new AppError('validation', 'Send an image file in the field named image', { field: 'image' });
    const type = sniffImage(req.file.buffer);
    if (!type) throw new AppError('unsupported_media_type', 'The file is not a PNG, JPEG, GIF or WebP image', { field: 'image' });
    const id = await images.put(req.file.buffer, type);
    const answer: ImageUploadAnswer = { success: true, data: { url: `/api/images/${id}` } };
    res.status(201).json(answer);
  });

  r.get('/images/:id', async (req, res) => {
    const img = await images.get(String(req.params.id));
    if (!img) throw notFound('Image');
    res
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .set('X-Content-Type-Options', 'nosniff')
      .type(img.contentType)
      .send(img.bytes);
  });
  return r;
}
