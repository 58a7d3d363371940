import { defineConfig } from 'vitest/config';

/**
 * `npm run test:kafka`: the suites that need a real Kafka broker (`*.kafka.test.ts`). The global
 * set-up uses KAFKA_BROKERS when set, otherwise fetches and starts a local broker
 * (scripts/kafka.mjs) and stops it afterwards; it also provides the PostgreSQL server as the
 * main suite does. Plain JavaScript: a TypeScript file at the root must be listed in
 * tsconfig.json for the linter, which the main suite's vitest.config.ts is.
 */
export default defineConfig({
  test: {
    include: ['packages/**/*.kafka.test.ts', 'services/**/*.kafka.test.ts', 'test/**/*.kafka.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['./packages/platform/src/testing/kafka-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // expect.poll's default (1 s) is short for a change that crosses a policy, a socket or a
    // broker on a busy 2-core machine: a poll ends as soon as it holds, so only a failure waits.
    expect: { poll: { timeout: 10_000 } },
  },
});
