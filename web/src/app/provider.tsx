import { ConfigProvider, type ThemeConfig } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { env } from '@/config/env';
import { LiveSync } from './live-sync';
import { SessionBootstrap } from './session-bootstrap';

/**
 * The brand and WCAG AA contrast (4.5:1) for antd's text: links in the brand teal instead of antd's
 * blue (4.1:1), danger red #cf1322 (antd's #ff4d4f is 3.3:1), secondary text at 60% black (45% is
 * 3.4:1), and each coloured Tag's text a shade darker on its pale background (green 3.4:1, gold
 * 2.8:1, orange 3.3:1, cyan 3.4:1, volcano 4.4:1 before; 5:1 and more now).
 */
const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0f766e',
    colorLink: '#0f766e',
    colorLinkHover: '#115e59',
    colorError: '#cf1322',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    green7: '#237804',
    gold7: '#874d00',
    yellow7: '#876800',
    lime7: '#3f6600',
    orange7: '#ad4e00',
    volcano7: '#ad2102',
    cyan7: '#006d75',
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
        {/* No antd <App>: nothing uses App.useApp, and it put Modal, message and notification in every page's download. */}
        <SessionBootstrap />
        <LiveSync />
        {children}
        <Toaster position={env.toastPosition} />
      </ConfigProvider>
    </JotaiProvider>
  );
}
