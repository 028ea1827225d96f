import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['apps/server/test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/web/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest leaves a core free by default, which on two cores runs one file at a time; most files mostly wait
    // (servers, timers), and each has a database, Redis prefix and ports of its own.
    maxWorkers: 2,
  },
});
