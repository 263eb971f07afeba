#!/usr/bin/env node
/**
 * `npm test`: every suite. Makes sure Chromium is there, builds the console the e2e tests load, runs
 * vitest (shared, server, sync) and Playwright (e2e), then prints one closing line `N passed, M failed`
 * summed over both, and exits non-zero when anything failed.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const bin = (name) => path.join(root, 'node_modules/.bin', name)
const results = path.join(root, 'test-results')
fs.mkdirSync(results, { recursive: true })
const run = (cmd, args, opts = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts }).status ?? 1

const only = process.argv[2] // optional: 'unit' or 'e2e'
let passed = 0
let failed = 0
let broken = false

// Chromium and pdftotext are needed by both halves: the server's PDF tests (vitest) and the e2e tests.
if (run('node', [path.join(root, 'scripts/setup-browser.mjs')]) !== 0) process.exit(1)
// coturn for the video relay test; missing and not installable, that one test is skipped.
if (only !== 'unit') run('node', [path.join(root, 'scripts/setup-coturn.mjs')])

if (only !== 'e2e') {
  // The store conformance suite's PostgreSQL half; outside CI it is skipped (with the reason) if this fails.
  if (run('node', [path.join(root, 'scripts/setup-postgres.mjs')]) !== 0 && process.env.CI === 'true') {
    process.exit(1)
  }
  const unitJson = path.join(results, 'unit.json')
  fs.rmSync(unitJson, { force: true })
  const code = run(bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${unitJson}`,
  ])
  if (fs.existsSync(unitJson)) {
    const r = JSON.parse(fs.readFileSync(unitJson, 'utf8'))
    passed += r.numPassedTests
    failed += r.numFailedTests
    // A suite that fails to load has no failed tests but still failed.
    if (code !== 0 && r.numFailedTests === 0) failed += Math.max(1, r.numFailedTestSuites ?? 1)
  } else if (code !== 0) {
    broken = true
  }
}

if (only !== 'unit') {
  if (run(bin('vite'), ['build', '--logLevel', 'warn']) !== 0) process.exit(1)
  const e2eJson = path.join(results, 'e2e.json')
  fs.rmSync(e2eJson, { force: true })
  const code = run(bin('playwright'), ['test'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson },
  })
  if (fs.existsSync(e2eJson)) {
    const s = JSON.parse(fs.readFileSync(e2eJson, 'utf8')).stats
    passed += s.expected + (s.flaky ?? 0)
    failed += s.unexpected
    if (code !== 0 && s.unexpected === 0) failed += 1
  } else if (code !== 0) {
    broken = true
  }
}

// The chaos soak (docs/contributing/reliability.md) is not part of `npm test`; CI asks for a short one
// (MOMENTUM_CI_SOAK=<seconds>), counted as one test in the closing line.
if (only !== 'unit' && process.env.MOMENTUM_CI_SOAK) {
  const soakJson = path.join(results, 'soak.json')
  fs.rmSync(soakJson, { force: true })
  const code = run(bin('playwright'), ['test', '-c', 'tests/soak/playwright.config.ts'], {
    env: {
      ...process.env,
      SOAK_SECONDS: process.env.MOMENTUM_CI_SOAK,
      PLAYWRIGHT_JSON_OUTPUT_NAME: soakJson,
    },
  })
  if (fs.existsSync(soakJson)) {
    const s = JSON.parse(fs.readFileSync(soakJson, 'utf8')).stats
    passed += s.expected + (s.flaky ?? 0)
    failed += s.unexpected
    if (code !== 0 && s.unexpected === 0) failed += 1
  } else if (code !== 0) {
    broken = true
  }
}

if (broken) failed += 1
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
