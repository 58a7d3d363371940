import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LeaderElected } from './leadership';
import { createTestDatabase, type TestDatabase } from './testing';

/**
 * Work like the Kafka relay's: `lead()` only starts it and returns; its first step then fails
 * (the broker refuses the first batch), unless `progress` says it gets a batch out first.
 */
class FailingWork extends LeaderElected {
  /** The backoff of each restart, as its warning says (ms). */
  readonly delays: number[];

  constructor(
    db: TestDatabase,
    private readonly work: { progress: boolean; steadyMs?: number; failAfterMs?: number },
  ) {
    const delays: number[] = [];
    super({
      pool: db.pool,
      lockKey: `test-leadership-${randomUUID()}`,
      label: 'failing work',
      steadyMs: work.steadyMs,
      warn: (message) => delays.push(Number(/restarting in (\d+) ms/.exec(message)?.[1])),
    });
    this.delays = delays;
  }

  protected async lead(attempt: number): Promise<void> {
    setTimeout(() => {
      if (this.work.progress) this.progressed(attempt);
      this.failed(attempt, new Error('the broker refused the batch'));
    }, this.work.failAfterMs ?? 5);
  }

  protected async release(): Promise<void> {}
}

describe('leadership: restarting failed work', () => {
  let db: TestDatabase;
  const started: FailingWork[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('leadership');
  });
  afterEach(async () => {
    for (const w of started.splice(0)) await w.stop();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const start = async (work: ConstructorParameters<typeof FailingWork>[1]) => {
    const w = new FailingWork(db, work);
    started.push(w);
    await w.start();
    return w;
  };

  it('when the work fails every time right after lead() returned, then the backoff grows with each failure in a row', async () => {
    const w = await start({ progress: false });
    await expect.poll(() => w.delays.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    // 100 ms doubling, less up to 20 % jitter: 100, 200, 400, 800, 1600.
    const [d1, d2, d3, d4, d5] = w.delays;
    expect(d1).toBeLessThanOrEqual(100);
    expect(d2).toBeGreaterThanOrEqual(160);
    expect(d3).toBeGreaterThanOrEqual(320);
    expect(d4).toBeGreaterThanOrEqual(640);
    expect(d5).toBeGreaterThanOrEqual(1280);
  });

  it('when the work got somewhere before each failure, then each failure counts as a first one and it restarts at once', async () => {
    const w = await start({ progress: true });
    await expect.poll(() => w.delays.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    expect(w.delays.slice(0, 5).every((d) => d >= 80 && d <= 100)).toBe(true);
  });

  it('when each attempt led for its steady time before failing, then each failure counts as a first one', async () => {
    const w = await start({ progress: false, steadyMs: 50, failAfterMs: 100 });
    await expect.poll(() => w.delays.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    expect(w.delays.slice(0, 4).every((d) => d >= 80 && d <= 100)).toBe(true);
  });
});
