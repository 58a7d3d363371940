import type { ImageUploadAnswer } from '@tv-shop/contracts';
import { apiRequest } from './api-client';
import { browserCodec, shrinkImage } from './shrink-image';

/** A stored photo and the small copy cards show (the photo itself when the server made none). */
export interface UploadedImage {
  url: string;
  thumbnailUrl: string;
}

/**
 * `POST /api/images`, shared by signup and Add Product: the photo is shrunk here first, so a
 * phone's full-size picture fits the server's 5 MB limit.
 */
export async function uploadPhoto(file: File): Promise<UploadedImage> {
  const form = new FormData();
  form.append('image', await shrinkImage(file, browserCodec));
  const answer = await apiRequest<ImageUploadAnswer>('/images', { method: 'POST', body: form });
  if (!answer.success) throw new Error('The image could not be uploaded.');
  return { url: answer.data.url, thumbnailUrl: answer.data.thumbnailUrl ?? answer.data.url };
}

/** The stored photo's URL alone (a profile photo needs no thumbnail). */
export const uploadImage = async (file: File): Promise<string> => (await uploadPhoto(file)).url;
