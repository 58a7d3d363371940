import type { Blog } from '@tv-shop/contracts';
import { useCallback, useState } from 'react';
import { apiRequest } from '@/lib/api-client';
import { useLoad } from '@/lib/use-load';

export const getBlogs = () => apiRequest<Blog[]>('/blogs');

export function useBlogs() {
  const [blogs, setBlogs] = useState<Blog[]>([]);
  const load = useCallback(async () => setBlogs(await getBlogs()), []);
  return { blogs, ...useLoad(load) };
}
