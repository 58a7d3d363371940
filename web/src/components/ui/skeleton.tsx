import type { ReactNode } from 'react';
import './skeleton.css';

/**
 * What a page shows while its code or its list is on the way: grey shapes where the content will
 * be, so the page is never blank and nothing jumps when it arrives. Screen readers hear `label`
 * once (a polite status); the shapes themselves are hidden from them.
 */
function Placeholder({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="skeleton-status" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <div className={className ? `skeleton ${className}` : 'skeleton'} aria-hidden="true">
        {children}
      </div>
    </div>
  );
}

function Cards({ count }: { count: number }) {
  return (
    <div className="product-grid">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton__card">
          <div className="skeleton__block" />
          <div className="skeleton__bar" />
          <div className="skeleton__bar skeleton__bar--short" />
          <div className="skeleton__bar skeleton__bar--short" />
        </div>
      ))}
    </div>
  );
}

/** Cards in the product grid's columns: a list of products, or a page of them, on the way. */
export function CardsSkeleton({ label = 'Loading', count = 3 }: { label?: string; count?: number }) {
  return (
    <Placeholder label={label}>
      <Cards count={count} />
    </Placeholder>
  );
}

/** Rows of a list or a table on the way. */
export function RowsSkeleton({ label = 'Loading', rows = 4 }: { label?: string; rows?: number }) {
  return (
    <Placeholder label={label} className="skeleton__rows">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton__bar" />
      ))}
    </Placeholder>
  );
}

/** A whole page on the way (its code is downloading): a heading and a few cards. */
export function PageSkeleton({ label = 'Loading the page' }: { label?: string }) {
  return (
    <Placeholder label={label} className="page skeleton--page">
      <div className="skeleton__bar skeleton__bar--kicker" />
      <div className="skeleton__bar skeleton__bar--title" />
      <Cards count={3} />
    </Placeholder>
  );
}
