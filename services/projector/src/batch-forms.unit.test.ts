import { describe, expect, it } from 'vitest';
import type { BatchContext, RecordedEvent } from '@tv-shop/platform';
import { projections } from './module';

/**
 * A live batch in which a projection handles no event (by its `handlers`) is not applied at all
 * (ADR 0048), and the database takes those types as the ones it applies (`checkpoint_reached`).
 * So a batch form must do nothing for any other type: shown here for every type some projection
 * handles, each given to every batch form whose handlers do not name it.
 */
describe('batch forms and the types their projections handle', () => {
  const everyType = [...new Set(projections.flatMap((p) => Object.keys(p.handlers)))].sort();
  const withBatchForm = projections.filter((p) => p.applyBatch && !p.everyEvent);

  it('every projection but the audit (which takes every event) has a batch form to check', () => {
    expect(withBatchForm.map((p) => p.name).sort()).toEqual(
      projections
        .filter((p) => !p.everyEvent)
        .map((p) => p.name)
        .sort(),
    );
  });

  it.each(withBatchForm.map((p) => [p.name, p] as const))(
    '%s: its batch form reads, writes and announces nothing for the types its handlers do not take',
    async (_name, projection) => {
      const others = everyType.filter((t) => projection.handlers[t] === undefined);
      expect(others.length).toBeGreaterThan(0);
      const events: RecordedEvent[] = others.map((type, i) => ({
        eventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        streamId: `s-${i}`,
        version: 0,
        position: i + 1,
        type,
        schemaVersion: 1,
        data: {},
        metadata: { actorId: 'test', actorRole: 'System', correlationId: 'test', causationId: null, at: new Date(0).toISOString() },
        recordedAt: new Date(0).toISOString(),
      }));
      const done: string[] = [];
      const ctx = {
        db: {
          query: async (text: string) => {
            done.push(`query: ${text}`);
            return { rows: [], rowCount: 0 };
          },
        },
        replaying: false,
        emit: () => done.push('emit'),
        later: (text: string) => done.push(`later: ${text}`),
      } as unknown as BatchContext;
      await projection.applyBatch!(events, ctx);
      expect(done).toEqual([]);
    },
  );
});
