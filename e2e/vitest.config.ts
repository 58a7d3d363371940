import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser journeys against the real server: one server for the run (global setup), journeys
 * one after another so their screenshots and timings do not fight over the CPU.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    // expect.poll's default (1 s) is short for a change that crosses a policy, a socket or a
    // broker on a busy 2-core machine: a poll ends as soon as it holds, so only a failure waits.
    expect: { poll: { timeout: 10_000 } },
  },
});
