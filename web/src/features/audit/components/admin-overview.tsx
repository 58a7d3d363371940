import type { AdminOverview as Overview } from '@tv-shop/contracts';
import { Button, Card, Statistic } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { Loaded } from '@/components/ui/loaded';
import { paths } from '@/config/paths';
import { Spinner } from '@/components/ui/spinner';
import { PartBoundary } from '@/components/ui/part-boundary';
import { retryableLazy } from '@/lib/code-download';
import { formatTk } from '@/lib/format';
import { auditPaths } from '../paths';
import { useOverview } from '../use-overview';
import { ActorLabel, EventTime, EventTypeTag } from './event-parts';
import { LagTable } from './lag-table';
import '../audit.css';

/** The chart library is only downloaded when the charts first show. */
const ActivityCharts = retryableLazy(() => import('./activity-charts').then((m) => m.default));

function Figures({ overview, openReports }: { overview: Overview; openReports: number }) {
  const month = (key: keyof Overview['totals']) => overview.days.reduce((sum, d) => sum + d[key], 0);
  const figures = [
    { title: 'Listings', value: overview.totals.listings, month: month('listings') },
    { title: 'Bookings', value: overview.totals.bookings, month: month('bookings') },
    { title: 'Payments', value: overview.totals.payments, month: month('payments') },
    { title: 'Paid', value: formatTk(overview.totals.paidPoisha / 100), month: formatTk(month('paidPoisha') / 100) },
    { title: 'Reports', value: overview.totals.reports, month: month('reports') },
  ];
  return (
    <ul className="overview-figures" aria-label="Figures">
      {figures.map((f) => (
        <li key={f.title}>
          <Card size="small">
            <Statistic title={f.title} value={f.value} />
            {/* Counted since the shop opened: they only grow (the open reports, beside, are now). */}
            <span className="overview-figures__month">all time; {f.month} in the last 30 days</span>
          </Card>
        </li>
      ))}
      <li>
        <Card size="small" className={openReports > 0 ? 'overview-figures__waiting' : undefined}>
          <Statistic title="Open reports" value={openReports} />
          <span className="overview-figures__month">
            {openReports > 0 ? <Link to={paths.dashboard.reportedItems.href()}>Review the open reports</Link> : 'none waiting'}
          </span>
        </Card>
      </li>
    </ul>
  );
}

function LiveFeed({ overview }: { overview: Overview }) {
  if (overview.recent.length === 0) return <p className="empty-text">Nothing has happened yet.</p>;
  return (
    <ol className="live-feed" aria-label="Latest events, newest first">
      {overview.recent.map((event) => (
        <li key={event.position} className="live-feed__item">
          <EventTime at={event.at} />
          <EventTypeTag type={event.type} />
          <Link to={auditPaths.stream.href(event.streamId, event.position)}>{event.streamId}</Link>
          <ActorLabel actor={event.actor} />
        </li>
      ))}
    </ol>
  );
}

/**
 * The admin's overview on the dashboard home: figures, 30 days of charts, the latest events and
 * how far each projection is behind, all kept current by pushes. `openReports` is the live count
 * of reported listings when the page has it.
 */
export function AdminOverview({ openReports }: { openReports?: number }) {
  const { overview, refresh, refreshing, ...state } = useOverview();
  return (
    <section className="admin-overview" aria-labelledby="admin-overview-heading">
      <h2 id="admin-overview-heading" className="dashboard__title">
        Overview
      </h2>
      <Loaded loading={state.loading} error={state.error} retry={state.retry} what="overview">
        {overview && (
          <>
            <Figures overview={overview} openReports={openReports ?? overview.openReports} />
            <PartBoundary what="the charts">
              <Suspense fallback={<Spinner label="Loading the charts" />}>
                <ActivityCharts days={overview.days} />
              </Suspense>
            </PartBoundary>
            <div className="admin-overview__columns">
              <Card size="small" title="Latest events" extra={<Link to={auditPaths.events.href()}>Event log</Link>}>
                <LiveFeed overview={overview} />
              </Card>
              <Card
                size="small"
                title="Projections and policies"
                extra={
                  <Button size="small" icon={<ReloadOutlined />} loading={refreshing} onClick={refresh}>
                    Refresh
                  </Button>
                }
              >
                <LagTable lag={overview.lag} />
              </Card>
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}
