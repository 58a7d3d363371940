import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** primary: the page's main action, filled; outline: the brand's colour on no fill; danger: in red. */
  variant?: 'default' | 'primary' | 'outline' | 'danger';
  size?: 'small' | 'middle';
  /** Busy: a spinner before the text, and no second click. */
  loading?: boolean;
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * A button in the shop's look, for the pages a visitor opens first (the shell, the storefront),
 * which do not download antd; antd's Button stays where its forms and tables already are (ADR 0043).
 */
export function Button({
  variant = 'default',
  size = 'middle',
  loading = false,
  icon,
  className,
  children,
  type = 'button',
  disabled,
  ...rest
}: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, size === 'small' ? 'btn--small' : '', loading ? 'btn--loading' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {loading ? <span className="btn__spinner" aria-hidden="true" /> : icon}
      {children != null ? <span>{children}</span> : null}
    </button>
  );
}
