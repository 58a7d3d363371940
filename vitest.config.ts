import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'services/**/*.test.ts', 'web/src/**/*.unit.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**', 'test/compose/**', '**/*.kafka.test.ts'],
    globalSetup: ['./packages/platform/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
