import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The web app's own imports (`@/lib/...`), as web/vite.config.ts resolves them, for its unit tests.
  resolve: { alias: { '@': fileURLToPath(new URL('./web/src', import.meta.url)) } },
  test: {
    include: ['packages/**/*.test.ts', 'services/**/*.test.ts', 'web/src/**/*.unit.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**', 'test/compose/**', '**/*.kafka.test.ts'],
    globalSetup: ['./packages/platform/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // expect.poll's default (1 s) is short for a change that crosses a policy, a socket or a
    // broker on a busy 2-core machine: a poll ends as soon as it holds, so only a failure waits.
    expect: { poll: { timeout: 10_000 } },
  },
});
