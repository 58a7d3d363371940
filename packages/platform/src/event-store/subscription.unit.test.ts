import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './types';
import { LiveSubscriptions, SharedTail } from './subscription';

/** An in-memory log with the one property the tail relies on: a read by position never skips (ADR 0002). */
function memoryLog() {
  const events: RecordedEvent[] = [];
  let next = 1;
  let reads = 0;
  const event = (position: number): RecordedEvent => ({
    eventId: `e${position}`,
    streamId: 's',
    version: position,
    position,
    type: 'T',
    schemaVersion: 1,
    data: {},
    metadata: {} as RecordedEvent['metadata'],
    recordedAt: new Date(0).toISOString(),
  });
  return {
    get reads() {
      return reads;
    },
    /** Commits `n` events (a skipped position stands for an append that failed after drawing it). */
    append(n: number, gap = false): RecordedEvent[] {
      if (gap) next++;
      const added = Array.from({ length: n }, () => event(next++));
      events.push(...added);
      return added;
    },
    async readAll(from: number, limit: number): Promise<RecordedEvent[]> {
      reads++;
      await Promise.resolve();
      return events.filter((e) => e.position > from).slice(0, limit);
    },
    async headPosition() {
      return events.at(-1)?.position ?? 0;
    },
  };
}

describe('the shared tail of the log', () => {
  it('when several readers ask for what follows the same position after one wake-up, then the log is read once for all', async () => {
    const log = memoryLog();
    let gen = 0;
    const tail = new SharedTail(
      (f, l) => log.readAll(f, l),
      () => gen,
    );
    log.append(3);
    gen++;
    const answers = await Promise.all(Array.from({ length: 6 }, () => tail.read(0, 500, gen)));
    expect(answers.every((a) => a.map((e) => e.position).join() === '1,2,3')).toBe(true);
    expect(log.reads).toBe(1);
    // Readers further on, after the same wake-up: no new read either.
    expect((await tail.read(2, 500, gen)).map((e) => e.position)).toEqual([3]);
    expect(await tail.read(3, 500, gen)).toEqual([]);
    expect(log.reads).toBe(1);
  });

  it('when a reader answers a newer wake-up, then it is given nothing older than a read started after that wake-up', async () => {
    const log = memoryLog();
    let gen = 0;
    const tail = new SharedTail(
      (f, l) => log.readAll(f, l),
      () => gen,
    );
    log.append(2);
    gen++;
    expect((await tail.read(0, 500, gen)).length).toBe(2);
    log.append(2);
    gen++;
    expect((await tail.read(2, 500, gen)).map((e) => e.position)).toEqual([3, 4]);
    expect(log.reads).toBe(2);
  });

  it('when this process appended right after the tail, then readers get those events without a read; a gap or a stranger is left to a read', async () => {
    const log = memoryLog();
    let gen = 0;
    const tail = new SharedTail(
      (f, l) => log.readAll(f, l),
      () => gen,
    );
    log.append(1);
    gen++;
    await tail.read(0, 500, gen);
    expect(tail.offer(log.append(2))).toBe(true);
    expect(tail.covers(3)).toBe(true);
    expect((await tail.read(1, 500, gen)).map((e) => e.position)).toEqual([2, 3]);
    expect(log.reads).toBe(1);
    // A failed append took position 4: the next events do not follow directly, and are read.
    expect(tail.offer(log.append(1, true))).toBe(false);
    gen++;
    expect((await tail.read(3, 500, gen)).map((e) => e.position)).toEqual([5]);
    expect(log.reads).toBe(2);
  });

  it('when readers start the tail one after another while this process appends, then what joined it is kept and a woken reader sees it', async () => {
    const log = memoryLog();
    let gen = 0;
    const tail = new SharedTail(
      (f, l) => log.readAll(f, l),
      () => gen,
    );
    log.append(5);
    // Two first reads, the second answering a newer wake-up: it waits for the first.
    const first = tail.read(0, 500, ++gen);
    const second = tail.read(0, 500, ++gen);
    await first;
    expect(tail.offer(log.append(1))).toBe(true);
    expect((await second).map((e) => e.position)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(tail.covers(6)).toBe(true);
    expect((await tail.read(5, 500, gen)).map((e) => e.position)).toEqual([6]);
  });

  it('when a reader is behind what the tail keeps, then it reads the log itself; the tail keeps a bounded number of events', async () => {
    const log = memoryLog();
    const gen = 1;
    const tail = new SharedTail(
      (f, l) => log.readAll(f, l),
      () => gen,
      10,
    );
    log.append(30);
    let at = 0;
    while (at < 30) {
      const got = await tail.read(at, 10, gen);
      at = got.at(-1)!.position;
    }
    const before = log.reads;
    expect((await tail.read(0, 5, gen)).map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
    expect(log.reads).toBe(before + 1);
    expect(tail.covers(30)).toBe(true);
  });

  it('whatever the interleaving of appends, wake-ups and readers, every subscription gets every event once and in order', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      let s = seed;
      const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const log = memoryLog();
      const live = new LiveSubscriptions(log, 5);
      const seen: number[][] = Array.from({ length: 4 }, () => []);
      const subs = seen.map((got, i) =>
        live.subscribe({
          name: `s${i}`,
          from: 0,
          batchSize: 1 + Math.floor(rand() * 7),
          onBatch: async ({ events }) => {
            got.push(...events.map((e) => e.position));
            if (rand() < 0.3) await new Promise((r) => setTimeout(r, 1));
          },
        }),
      );
      for (let step = 0; step < 40; step++) {
        const added = log.append(1 + Math.floor(rand() * 4), rand() < 0.1);
        const r = rand();
        if (r < 0.4) live.appended(added);
        if (r < 0.7) live.wakeAll(r < 0.55 ? added.at(-1)!.position : undefined);
        if (rand() < 0.5) await new Promise((res) => setTimeout(res, rand() * 3));
      }
      await Promise.all(subs.map((sub) => sub.caughtUp()));
      const all = (await log.readAll(0, 10_000)).map((e) => e.position);
      for (const got of seen) expect(got).toEqual(all);
      await live.stopAll();
    }
  });
});
