/** The fault suite (`npm run test:faults`): real processes, private PostgreSQL and Redis, one file at a time. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['apps/server/test/faults/**/*.fault.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each scenario starts its own servers and worker processes: running them side by side would only fight for CPU.
    fileParallelism: false,
    maxWorkers: 1,
  },
});
