import { defineConfig } from 'vitest/config';

// The compose smoke test only (`npm run test:compose` starts the stack and runs this); no global
// setup, since the database is the stack's own, reached only through the gateway.
export default defineConfig({
  test: {
    include: ['test/compose/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
