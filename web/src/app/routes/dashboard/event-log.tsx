import { usePageTitle } from '@/lib/use-page-title';
import { EventLog } from '@/features/audit/components/event-log';
import { auditPaths } from '@/features/audit/paths';
import { withAntd } from '@/lib/antd-theme';

/** The admin's event log (loaded on its own: only the admin opens it). */
function EventLogPageContent() {
  usePageTitle(auditPaths.events.title);
  return (
    <section aria-labelledby="event-log-heading" className="audit-page">
      <h1 id="event-log-heading" className="dashboard__title">
        {auditPaths.events.title}
      </h1>
      <EventLog />
    </section>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const EventLogPage = withAntd(EventLogPageContent);
