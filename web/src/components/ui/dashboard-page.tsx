import { useRef, type ReactNode } from 'react';
import { useKeptFocus } from '@/lib/use-kept-focus';
import { usePageTitle } from '@/lib/use-page-title';
import { Loaded } from './loaded';

/**
 * A dashboard page that shows one list: its title (tab and heading) and the list, with the
 * spinner while it loads and the error with Retry if it fails.
 */
export function DashboardPage({
  title,
  what,
  list,
  children,
}: {
  title: string;
  /** The list in words, for the error ("Could not load the orders."). */
  what: string;
  list: { loading: boolean; error: string | null; retry: () => void };
  children: ReactNode;
}) {
  usePageTitle(title);
  const section = useRef<HTMLElement>(null);
  // A row's button that goes with what it did hands the focus on (Delete, Verify, Cancel).
  useKeptFocus(section);
  const headingId = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section ref={section} aria-labelledby={headingId}>
      <h1 id={headingId} className="dashboard__title">
        {title}
      </h1>
      <Loaded loading={list.loading} error={list.error} retry={list.retry} what={what}>
        {children}
      </Loaded>
    </section>
  );
}
