import { Link, useParams } from 'react-router-dom';
import { StreamTimeline } from '@/features/audit/components/stream-timeline';
import { auditPaths } from '@/features/audit/paths';
import { useLogReturn } from '@/features/audit/use-log-return';
import { usePageTitle } from '@/lib/use-page-title';
import { withAntd } from '@/lib/antd-theme';

/** One stream's events and its state at each of them. */
function StreamTimelinePageContent() {
  const streamId = useParams().streamId ?? '';
  usePageTitle(`${auditPaths.stream.title}: ${streamId}`);
  const { logSearch } = useLogReturn();
  return (
    <section aria-labelledby="stream-timeline-heading" className="audit-page">
      <Link to={`${auditPaths.events.href()}${logSearch}`}>← Event log</Link>
      <h1 id="stream-timeline-heading" className="dashboard__title stream-title">
        {streamId}
      </h1>
      <StreamTimeline key={streamId} streamId={streamId} />
    </section>
  );
}

/** Built with antd: in the shop's theme (lib/antd-theme.tsx; ADR 0043). */
export const StreamTimelinePage = withAntd(StreamTimelinePageContent);
