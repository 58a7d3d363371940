import type { Blog } from '@tv-shop/contracts';
import { useState } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';

export const getBlogs = () => apiRequest<Blog[]>('/blogs');

export function useBlogs() {
  const [blogs, setBlogs] = useState<Blog[]>([]);
  const state = useLoad(async () => setBlogs(await getBlogs()), []);
  return { blogs, ...state };
}
