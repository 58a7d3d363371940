import { App as AntApp, ConfigProvider } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { env } from '@/config/env';
import { LiveSync } from './live-sync';
import { SessionBootstrap } from './session-bootstrap';

const theme = {
  token: {
    colorPrimary: '#0f766e',
    borderRadius: 8,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    Menu: { itemSelectedBg: '#ccfbf1', itemSelectedColor: '#115e59' },
  },
};

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider>
      <ConfigProvider theme={theme}>
        <AntApp>
          <SessionBootstrap />
          <LiveSync />
          {children}
          <Toaster position={env.toastPosition} />
        </AntApp>
      </ConfigProvider>
    </JotaiProvider>
  );
}
