import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { env } from '@/config/env';
import { LiveSync } from './live-sync';
import { MyBookingsSync } from './my-bookings-sync';
import { SessionBootstrap } from './session-bootstrap';

/**
 * The app's state, session and live connection, and its toasts. No antd here: the shell and the
 * storefront paint with the shop's own small controls, and the pages built with antd bring it
 * and its theme themselves (lib/antd-theme.tsx; ADR 0043).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider>
      <SessionBootstrap />
      <LiveSync />
      <MyBookingsSync />
      {children}
      {/* Below the sticky navigation bar (navbar.tsx measures it), which a toast would cover on a phone. */}
      <Toaster position={env.toastPosition} containerStyle={{ top: 'calc(var(--navbar-height, 0px) + 12px)' }} />
    </JotaiProvider>
  );
}
