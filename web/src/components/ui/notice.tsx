import type { ReactNode } from 'react';
import { NoticeIcon } from './icons';

interface NoticeProps {
  type: 'error' | 'warning' | 'info' | 'success';
  /** The notice in one line; the description under it, if any, says more. */
  title: ReactNode;
  description?: ReactNode;
  /** A button at the end (Retry). */
  action?: ReactNode;
  /** alert for what just went wrong, status for a standing state; none for a quiet one. */
  role?: 'alert' | 'status';
  /** Full width with no rounded border: a strip above the page. */
  banner?: boolean;
  className?: string;
}

/** A message box with an icon (an error, a warning): antd's Alert look without antd. */
export function Notice({ type, title, description, action, role, banner = false, className }: NoticeProps) {
  const classes = [
    'notice',
    `notice--${type}`,
    banner ? 'notice--banner' : '',
    description ? 'notice--with-description' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} role={role}>
      <NoticeIcon type={type} className="notice__icon" />
      <div className="notice__content">
        <div className="notice__title">{title}</div>
        {description ? <div className="notice__description">{description}</div> : null}
      </div>
      {action ? <div className="notice__action">{action}</div> : null}
    </div>
  );
}
