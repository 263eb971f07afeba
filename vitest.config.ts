import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'tests/shared/**/*.test.ts',
      'tests/server/**/*.test.ts',
      'tests/sync/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one fork per core less one: a single fork on CI's 2 cores. The suites mostly
    // wait on real servers, sockets and timers, so two forks halve the wall time (600 s → 444 s here).
    maxWorkers: 2,
  },
})
