import { useEffect } from 'react';
import { SITE_NAME } from '@/config/paths';

export function usePageTitle(pageName: string): void {
  useEffect(() => {
    document.title = `${pageName} -- ${SITE_NAME}`;
  }, [pageName]);
}
