import type { ReactNode, Ref } from 'react';

/** The tag colours in use; each text colour has at least 4.5:1 on its pale background (WCAG AA). */
export type TagColor = 'default' | 'green' | 'red' | 'orange' | 'gold' | 'cyan' | 'blue' | 'volcano' | 'purple' | 'geekblue';

interface TagProps {
  color?: TagColor;
  className?: string;
  children: ReactNode;
  /** -1 where the focus is put on it by script (what a control turned into), never a tab stop. */
  tabIndex?: -1;
  ref?: Ref<HTMLSpanElement>;
}

/** A small coloured label (Sold, Available, Reported, a status): antd's Tag look without antd. */
export function Tag({ color = 'default', className, children, tabIndex, ref }: TagProps) {
  return (
    <span ref={ref} tabIndex={tabIndex} className={`tag tag--${color}${className ? ` ${className}` : ''}`}>
      {children}
    </span>
  );
}
