import { defineConfig } from 'vitest/config';

const ISOLATED = ['apps/server/test/security/authorization.test.ts'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest leaves a core free by default, which on two cores runs one file at a time; most files mostly wait
    // (servers, timers), and each has a database, Redis prefix and ports of its own.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['apps/server/test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/web/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...ISOLATED],
          // Files share a worker's loaded modules: importing the server once per worker instead of once per file
          // halves the suite's time. A module's state therefore lives on from file to file, as in a long-running server.
          isolate: false,
        },
      },
      // Files that replace a module (vi.mock) need modules of their own.
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
