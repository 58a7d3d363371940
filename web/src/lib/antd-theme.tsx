import './antd-react19';
import { ConfigProvider, type ThemeConfig } from 'antd';
import type { ComponentType, ReactNode } from 'react';

/** A touch screen (a phone, a tablet): its controls are sized for a finger. Read once, when the page loads. */
const touch = typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches === true;

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
    // On a touch screen, controls a finger hits: 40 px high, not 32 (ui.css does the same for ours),
    // and the small ones in tables (My Orders' Pay and Cancel) 36, not 24.
    ...(touch ? { controlHeight: 40, controlHeightSM: 36 } : {}),
  },
  // Text boxes at 16 px there: below it a phone's browser zooms the page in when one is focused.
  ...(touch ? { components: { Input: { inputFontSize: 16 }, InputNumber: { inputFontSize: 16 } } } : {}),
};

/**
 * antd in the shop's theme, around the pages and pieces that use antd (forms, tables, modals).
 * It is imported by them, not by the shell, so a page without antd downloads none of it
 * (ADR 0043). Nesting is harmless: an inner one repeats the same theme.
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={theme}>{children}</ConfigProvider>;
}

/** `Component` inside AntdTheme: for a page (or a lazily loaded piece) built with antd. */
export function withAntd<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function Themed(props: P) {
    return (
      <AntdTheme>
        <Component {...props} />
      </AntdTheme>
    );
  }
  Themed.displayName = `withAntd(${Component.displayName ?? Component.name})`;
  return Themed;
}
