import type { ProjectionLag, VerifyReport } from '@tv-shop/contracts';
import { Button, Table, Tag } from 'antd';
import { useState } from 'react';
import { ApiError, errorMessage } from '@/lib/api-client';
import { verifyProjection } from '../api/verify-projection';
import { Notice } from '@/components/ui/notice';

type Verify = { status: 'running' } | { status: 'done'; report: VerifyReport } | { status: 'failed'; error: string };

function VerifyResult({ name, verify }: { name: string; verify: Verify }) {
  if (verify.status === 'running') return null;
  if (verify.status === 'failed') return <Notice type="error" title={`Could not verify ${name}.`} description={verify.error} />;
  const { report } = verify;
  const when = `at position ${report.position}, in ${(report.tookMs / 1000).toFixed(1)} s`;
  if (report.equal) return <Notice type="success" title={`${name} equals a fresh replay of the log`} description={when} />;
  return (
    <Notice
      type="warning"
      title={`${name} differs from a fresh replay of the log`}
      description={
        <div className="verify-differences">
          <p>{when}</p>
          <ul>
            {report.differences.map((d) => (
              <li key={d.table}>
                <strong>{d.table}</strong>: {d.onlyLive} row{d.onlyLive === 1 ? '' : 's'} only live, {d.onlyRebuilt} only in the replay
                {d.note ? ` (${d.note})` : ''}
                {d.rows.length > 0 && (
                  <details>
                    <summary>Rows</summary>
                    <pre className="event-data">{d.rows.map((r) => `${r.side}: ${JSON.stringify(r.row)}`).join('\n')}</pre>
                  </details>
                )}
              </li>
            ))}
          </ul>
        </div>
      }
    />
  );
}

/** Each projection's and policy's distance behind the head, and a replay check for each projection. */
export function LagTable({ lag }: { lag: ProjectionLag[] }) {
  const [verifies, setVerifies] = useState<Record<string, Verify>>({});
  const verify = async (name: string) => {
    setVerifies((v) => ({ ...v, [name]: { status: 'running' } }));
    try {
      const report = await verifyProjection(name);
      setVerifies((v) => ({ ...v, [name]: { status: 'done', report } }));
    } catch (error) {
      const busy = error instanceof ApiError && error.status === 409;
      const text = busy ? `A check of ${name} is already running; try again when it is done.` : errorMessage(error);
      setVerifies((v) => ({ ...v, [name]: { status: 'failed', error: text } }));
    }
  };
  return (
    <>
      <Table<ProjectionLag>
        className="lag-table"
        size="small"
        rowKey={(row) => `${row.kind}:${row.name}`}
        pagination={false}
        dataSource={lag}
        columns={[
          { title: 'Name', dataIndex: 'name' },
          { title: 'Kind', dataIndex: 'kind', render: (kind: string) => <Tag>{kind}</Tag> },
          { title: 'Position', dataIndex: 'position', responsive: ['md'] },
          {
            title: 'Behind',
            key: 'behind',
            render: (_, row) =>
              row.events === 0 ? <Tag color="green">caught up</Tag> : <Tag color="orange">{`${row.events} events, ${row.seconds} s`}</Tag>,
          },
          {
            title: 'Check',
            key: 'verify',
            render: (_, row) =>
              row.kind === 'projection' ? (
                <Button
                  size="small"
                  loading={verifies[row.name]?.status === 'running'}
                  onClick={() => void verify(row.name)}
                  aria-label={`Verify ${row.name}`}
                >
                  Verify
                </Button>
              ) : null,
          },
        ]}
      />
      <div className="verify-results" aria-live="polite">
        {Object.entries(verifies).map(([name, v]) => (
          <VerifyResult key={name} name={name} verify={v} />
        ))}
      </div>
    </>
  );
}
