/**
 * The chaos soak (`npm run soak`, docs/contributing/reliability.md): its own Playwright config so `npm test` never
 * runs it. One long test; SOAK_SECONDS sets its length (default 600), SOAK_SEED replays a run.
 */
import { defineConfig } from '@playwright/test'
import base from '../../playwright.config'

const seconds = Number(process.env.SOAK_SECONDS ?? 600)

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '**/*.soak.ts',
  // The writing time, then up to five minutes to converge and check.
  timeout: (seconds + 300) * 1000,
  // Opening a tab on a loaded machine (the soak runs with other suites) may take a while.
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../../test-results/soak.json' }]],
})
