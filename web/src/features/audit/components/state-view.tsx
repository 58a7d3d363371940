import { Segmented, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { diffStates } from '../state-diff';

type View = 'fields' | 'changes' | 'json';

/**
 * An entity's state at one step: field by field, with what changed since the step before marked;
 * only what changed (a listing has some twenty fields, and stepping through time the table keeps
 * its order rather than moving the changes up); or as the JSON the server answered.
 */
export function StateView({ state, before, caption }: { state: unknown; before: unknown; caption: string }) {
  const [view, setView] = useState<View>('fields');
  const { fields, removed } = useMemo(() => diffStates(before, state), [before, state]);
  const changed = fields.filter((f) => f.changed);
  const changes = changed.length + removed.length;
  const shown = view === 'changes' ? changed : fields;
  return (
    <div className="state-view">
      <div className="state-view__head">
        <span className="state-view__summary">
          {changes === 0 ? 'Nothing changed at this step.' : `${changes} field${changes === 1 ? '' : 's'} changed at this step.`}
        </span>
        <Segmented
          size="small"
          value={view}
          onChange={(v) => setView(v as View)}
          options={[
            { value: 'fields', label: 'Fields' },
            { value: 'changes', label: 'Changes' },
            { value: 'json', label: 'JSON' },
          ]}
        />
      </div>
      {view === 'json' ? (
        <pre className="event-data">{JSON.stringify(state, null, 2)}</pre>
      ) : shown.length + removed.length === 0 ? null : (
        <table className="state-view__table">
          <caption className="visually-hidden">{caption}</caption>
          <tbody>
            {shown.map((field) => (
              <tr key={field.path} className={field.changed ? 'state-view__row--changed' : undefined}>
                <th scope="row">{field.path}</th>
                <td>
                  <span className="state-view__value">{field.value}</span>
                  {field.changed && (
                    <Tag color="gold" className="state-view__mark">
                      changed
                    </Tag>
                  )}
                </td>
              </tr>
            ))}
            {removed.map((field) => (
              <tr key={`removed-${field.path}`} className="state-view__row--removed">
                <th scope="row">{field.path}</th>
                <td>
                  <del className="state-view__value">{field.value}</del>
                  <Tag color="red" className="state-view__mark">
                    gone
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
