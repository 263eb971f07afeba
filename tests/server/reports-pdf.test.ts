/**
 * A report as PDF (issue 17, docs/using/reports.md#pdf) against the real server and the real Chromium: the
 * PDF's text (pdftotext) holds the report's title and a figure the shared computation gives; it needs
 * the rights of running the report; markup in a value prints as text, not as HTML.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { cellText, computeReport, type ReportDefinition } from '../../src/shared/reports'
import { pdfText } from '../helpers/pdf-text'
import { suiteServer } from '../helpers/suite-server'

const DEF: ReportDefinition = {
  title: 'Scores by site',
  collection: 'data/sites',
  filter: [],
  groupBy: ['site'],
  aggregates: [{ op: 'count' }, { op: 'sum', field: 'score' }],
  sort: { key: 'site', dir: 'asc' },
  view: 'bar',
}
const docs = [
  { _id: 'a', site: 'Depot', score: 12.25 },
  { _id: 'b', site: 'Depot', score: 30.5 },
  { _id: 'c', site: '<b>Bold</b> & <i>co</i>', score: 7 },
]

async function getPdf(path: string, token = server.admin, json?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

const server = suiteServer()
beforeAll(async () => {
  for (const body of docs)
    expect((await server.api('/api/data/sites', { token: server.admin, json: body })).status).toBe(201)
  expect(
    (await server.api('/api/reports', { token: server.admin, json: { _id: 'by-site', ...DEF } })).status,
  ).toBe(201)
}, 60_000)

describe('a report as PDF', () => {
  it('prints the title and the computed figures of a saved report', async () => {
    const { res, bytes } = await getPdf('/api/reports/by-site/pdf')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="by-site.pdf"')
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const text = pdfText(bytes)
    expect(text).toContain('Scores by site')
    const depot = computeReport(DEF, docs).rows.find((r) => r.site === 'Depot')!
    expect(cellText(depot['sum(score)'])).toBe('42.75')
    expect(text).toMatch(/Depot\s+2\s+42\.75/)
    expect(text).toContain('data/sites')
  }, 60_000)

  it('escapes values: markup in a document prints as text', async () => {
    const text = pdfText((await getPdf('/api/reports/by-site/pdf')).bytes)
    expect(text).toContain('<b>Bold</b> & <i>co</i>')
  }, 60_000)

  it('prints an unsaved definition with POST /api/reports/pdf', async () => {
    const { res, bytes } = await getPdf('/api/reports/pdf', server.admin, {
      ...DEF,
      title: 'Draft <script>x</script>',
    })
    expect(res.status).toBe(200)
    expect(pdfText(bytes)).toContain('Draft <script>x</script>')
  }, 60_000)

  it('needs the rights of running the report', async () => {
    const noCollection = await server.userWith('pdf-no-collection', ['reports:r'])
    expect((await getPdf('/api/reports/by-site/pdf', noCollection)).res.status).toBe(403)
    expect((await getPdf('/api/reports/pdf', noCollection, DEF)).res.status).toBe(403)
    const noReport = await server.userWith('pdf-no-report', ['data/sites:r'])
    expect((await getPdf('/api/reports/by-site/pdf', noReport)).res.status).toBe(403)
    // Running the report is enough: no pdf:c needed.
    const reader = await server.userWith('pdf-reader', ['reports:r', 'data/sites:r'])
    expect((await getPdf('/api/reports/by-site/pdf', reader)).res.status).toBe(200)
  }, 60_000)
})
