import type { ReactNode } from 'react';

/** The spec's empty-state sentences ('No Order Available' and the like). */
export function EmptyText({ children }: { children: ReactNode }) {
  return <p className="empty-text">{children}</p>;
}
