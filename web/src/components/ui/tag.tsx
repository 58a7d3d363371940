import type { ReactNode } from 'react';

/** The tag colours in use; each text colour has at least 4.5:1 on its pale background (WCAG AA). */
export type TagColor = 'default' | 'green' | 'red' | 'orange' | 'gold' | 'cyan' | 'blue' | 'volcano' | 'purple' | 'geekblue';

/** A small coloured label (Sold, Available, Reported, a status): antd's Tag look without antd. */
export function Tag({ color = 'default', className, children }: { color?: TagColor; className?: string; children: ReactNode }) {
  return <span className={`tag tag--${color}${className ? ` ${className}` : ''}`}>{children}</span>;
}
