/**
 * Client Logs and Server Logs against the real server with the sample data (40 client lines on
 * 2026-01-01 from 00:00 UTC, one a minute): level, search and time filters, the paused live tail,
 * clearing online and offline through the mutation API (the server gets the deletes), and the server's
 * own log.
 */
import { deleteButtonText, deleteConfirmText, deletedToast, SCREENS_TEXT } from '../../src/shared/texts'
import { LogsPage } from './pages/logs'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'

test.use({ seed: 'sample', timezoneId: 'UTC' })

const SHOTS = 'test-results/screenshots'

interface Line {
  _id: string
  level: string
  log: string
}

async function sampleLines(
  server: { api: <T>(p: string, i?: { token?: string }) => Promise<{ body: T }> },
  token: string,
) {
  const all = (await server.api<Line[]>('/api/logs/client?limit=1000', { token })).body
  return all.filter((l) => l.log.startsWith('Sample client event'))
}

test('filter client logs by level, search and time range', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 1280, height: 800 })
  await openLoggedIn(page, server, token, '/logs/client')
  await engineReady(page)
  const logs = new LogsPage(page)
  await expect(logs.heading).toHaveText('Client Logs')
  await expect(logs.rows.first()).toContainText('Sample client event 40')
  await page.screenshot({ path: `${SHOTS}/logs-client-1280.png` })

  const sample = await sampleLines(server, token)
  const errors = sample.filter((l) => l.level === 'ERROR').map((l) => l.log)
  await logs.onlyLevels('ERROR')
  await logs.search.fill('Sample client event')
  await expect(logs.summary).toContainText(new RegExp(`^${errors.length} of \\d+ lines$`))
  const shown = await logs.lines()
  expect(shown.map(([level]) => level)).toEqual(errors.map(() => 'ERROR'))
  expect(new Set(shown.map(([, log]) => log))).toEqual(new Set(errors))

  await logs.onlyLevels('ERROR', 'WARN', 'INFO', 'LOG', 'DEBUG')
  await logs.range('2026-01-01T00:00', '2026-01-01T00:09')
  await expect(logs.summary).toContainText(/^10 of \d+ lines$/)
  expect((await logs.lines()).map(([, log]) => log)).toEqual(
    Array.from({ length: 10 }, (_, i) => `Sample client event ${10 - i}`),
  )
})

test('pause holds the tail, resume shows new lines; clear works online and offline', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  // Offline below is a real cut for the page and its workers (context.setOffline misses the workers).
  await openLoggedIn(page, through, token, '/logs/client')
  await engineReady(page)
  const logs = new LogsPage(page)
  await expect(logs.rows.first()).toContainText('Sample client event')

  await page.getByRole('button', { name: 'Pause' }).click()
  await server.api('/api/logs/client', {
    token,
    json: { level: 'WARN', log: 'Arrived while paused', time: '2026-06-01T00:00:00Z' },
  })
  await expect(page.getByText('Paused — 1 new line waiting')).toBeVisible()
  await expect(logs.rows.filter({ hasText: 'Arrived while paused' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Resume' }).first().click()
  await expect(logs.rows.first()).toContainText('Arrived while paused')

  // "Sample client event 3" matches 3 and 30-39.
  await logs.search.fill('Sample client event 3')
  await expect(logs.summary).toContainText(/^11 of \d+ lines$/)
  await page.getByRole('button', { name: /^Clear/ }).click()
  await expect(logs.dialog).toContainText(deleteConfirmText(11, 'log lines'))
  await logs.dialog.getByRole('button', { name: deleteButtonText(11), exact: true }).click()
  await expect(logs.toasts.filter({ hasText: deletedToast(11) })).toBeVisible()
  await expect(logs.rows).toHaveCount(0)
  await expect
    .poll(
      async () =>
        (await sampleLines(server, token)).filter((l) => /^Sample client event 3\d?$/.test(l.log)).length,
    )
    .toBe(0)

  link.offline = true
  link.killEngineSockets()
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'offline')
  await logs.search.fill('Sample client event 2')
  await expect(logs.summary).toContainText(/^11 of \d+ lines$/)
  await logs.clear(deleteButtonText(11))
  // The deletes are only in the outbox: the toast says so, in the words every delete uses (the spec's
  // "Deleted N item(s)" first), though the browser still has a network (issue 20).
  await expect(logs.toasts.filter({ hasText: SCREENS_TEXT.deletedOffline(11) })).toBeVisible()
  await expect(logs.toasts.getByText(deletedToast(11), { exact: true })).toHaveCount(0)
  await expect(logs.rows).toHaveCount(0)
  expect(
    (await sampleLines(server, token)).filter((l) => /^Sample client event 2\d?$/.test(l.log)).length,
  ).toBe(11)
  link.offline = false
  await expect
    .poll(
      async () =>
        (await sampleLines(server, token)).filter((l) => /^Sample client event 2\d?$/.test(l.log)).length,
      {
        timeout: 30_000,
      },
    )
    .toBe(0)
})

test('server logs show the server channel, readable at 375 px', async ({ page, server }) => {
  const token = await server.login()
  await page.setViewportSize({ width: 375, height: 740 })
  await openLoggedIn(page, server, token, '/logs/server')
  await engineReady(page)
  const logs = new LogsPage(page)
  await expect(logs.heading).toHaveText('Server Logs')
  await expect(logs.rows.filter({ hasText: 'First start' })).toHaveCount(1)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await logs.rows.filter({ hasText: 'First start' }).click()
  await expect(page.getByRole('complementary', { name: 'Log line' })).toContainText('First start')
  await page.screenshot({ path: `${SHOTS}/logs-server-375.png`, fullPage: true })
})
