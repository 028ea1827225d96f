/** The fault suite (`npm run test:faults`): real processes, private PostgreSQL and Redis, outside `vitest run`. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['apps/server/test/faults/**/*.fault.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Scenarios spend most of their time waiting (leases, retry delays), so two files run side by side; each has its
    // own PostgreSQL, Redis and ports, so they cannot disturb each other.
    maxWorkers: 2,
  },
});
