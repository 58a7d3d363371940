import { useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { OutageNotices } from '@/components/ui/load-error';
import { useFocusOnNavigate } from '@/lib/use-focus-on-navigate';
import { Footer } from './footer';
import { Navbar } from './navbar';

export function RootLayout() {
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigate(main);
  return (
    <div className="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar />
      <OutageNotices />
      <main id="main" ref={main} className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
