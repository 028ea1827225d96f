/** How many engine threads `herald serve` runs: one per core beside the API's, or HERALD_ENGINE_THREADS. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { engineThreadCount } from '../../src/engine/threads.js';

const env = { DATA_DIR: '/tmp/herald-engine-threads', HERALD_SECRET: 'a'.repeat(64) };

describe('engine threads', () => {
  it('leaves one core to the API by default, at least one thread and at most four', () => {
    expect(loadConfig(env).engineThreads).toBeUndefined();
    expect(engineThreadCount(1)).toBe(1);
    expect(engineThreadCount(2)).toBe(1);
    expect(engineThreadCount(4)).toBe(3);
    expect(engineThreadCount(32)).toBe(4);
  });

  it('takes HERALD_ENGINE_THREADS, and names it when it is not a whole number from 1 to 16', () => {
    expect(loadConfig({ ...env, HERALD_ENGINE_THREADS: '2' }).engineThreads).toBe(2);
    for (const bad of ['0', '17', '1.5', 'two'])
      expect(() => loadConfig({ ...env, HERALD_ENGINE_THREADS: bad })).toThrow(/HERALD_ENGINE_THREADS/);
  });
});
