import type { ImageUploadAnswer } from '@tv-shop/contracts';
import { apiRequest } from './api-client';

/** `POST /api/images`: shared by signup and Add Product; answers the stored image's URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const answer = await apiRequest<ImageUploadAnswer>('/images', { method: 'POST', body: form });
  if (!answer.success) throw new Error('The image could not be uploaded.');
  return answer.data.url;
}
