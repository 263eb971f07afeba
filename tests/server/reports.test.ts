/**
 * Reports against the real server (issue 17, docs/using/reports.md): the console's computation over a set of
 * documents (what it runs on its mirror) equals POST /api/reports/run over the same documents in the
 * store, floats included and in whatever order either side reads them; saved reports are checked; a
 * narrowed grant leaves hidden documents out of the server's numbers as the mirror leaves them out.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { computeReport, type ReportDefinition } from '../../src/shared/reports'
import { REPORT_TEXT, requiresOneOf } from '../../src/shared/texts'
import type { ApiInit } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const api = (path: string, init: ApiInit = {}) => server.api(path, { token: server.admin, ...init })

const SITES = ['Depot', 'Dock', 'Yard', 'Kraków']
// Scores with fractions whose running float sum depends on the order of addition.
const docs = Array.from({ length: 240 }, (_, i) => {
  const doc: Record<string, unknown> = {
    _id: `r${String(i).padStart(4, '0')}`,
    site: SITES[i % SITES.length],
    status: i % 3 === 0 ? 'open' : 'closed',
    score: Math.round(Math.sin(i) * 1000) / 7 + 0.1,
    meta: { crew: i % 5 },
  }
  if (i % 11 === 0) delete doc.score
  if (i % 13 === 0) doc.score = String(doc.score) // a string is not summed
  return doc
})

const DEF: ReportDefinition = {
  collection: 'data/inspections',
  filter: [{ field: 'status', op: 'ne', value: 'archived' }],
  groupBy: ['site', 'meta.crew'],
  aggregates: [
    { op: 'count' },
    { op: 'sum', field: 'score' },
    { op: 'avg', field: 'score' },
    { op: 'min', field: 'score' },
    { op: 'max', field: 'score' },
  ],
  sort: { key: 'sum(score)', dir: 'desc' },
  view: 'table',
}

const stored = async () =>
  (await api('/api/data/inspections?limit=1000')).body as Array<Record<string, unknown>>

const server = suiteServer()
beforeAll(async () => {
  // Written in a shuffled order, so the server's pages and the local list disagree on order.
  const shuffled = [...docs].sort((a, b) => ((a.score as number) ?? 0) - ((b.score as number) ?? 0))
  const res = await api('/api/batch', {
    json: { mutations: shuffled.map((body) => ({ method: 'POST', path: '/api/data/inspections', body })) },
  })
  expect(res.status).toBe(200)
})

describe('a report computed in the console and on the server', () => {
  it('gives the same numbers for the same documents', async () => {
    const local = computeReport(DEF, (await stored()).reverse())
    const remote = await api('/api/reports/run', { json: DEF })
    expect(remote.status).toBe(200)
    expect(remote.body).toEqual(local)
    expect(local.matched).toBe(240)
    expect(local.rows).toHaveLength(20)
  })

  it('agrees on filters, ranges, missing values and a limit', async () => {
    const def: ReportDefinition = {
      collection: 'data/inspections',
      filter: [
        { field: 'score', op: 'gte', value: 0 },
        { field: 'site', op: 'contains', value: 'k' },
      ],
      groupBy: ['status'],
      aggregates: [{ op: 'avg', field: 'score' }, { op: 'count' }],
      limit: 1,
      view: 'bar',
    }
    const local = computeReport(def, await stored())
    expect((await api('/api/reports/run', { json: def })).body).toEqual(local)
    expect(local.rows).toHaveLength(1)
  })

  it('leaves out documents a narrowed grant hides, as the mirror does', async () => {
    const token = await server.userWith('narrow-reader', ['data/inspections:r', 'data/inspections/r0000:n'])
    const remote = await server.api('/api/reports/run', { token, json: DEF })
    const local = computeReport(
      DEF,
      (await stored()).filter((d) => d._id !== 'r0000'),
    )
    expect(remote.body).toEqual(local)
  })

  it('needs read access to the collection', async () => {
    const token = await server.userWith('no-reader', ['reports:r'])
    const res = await server.api('/api/reports/run', { token, json: DEF })
    expect(res.status).toBe(403)
    expect((res.body as { message: string }).message).toBe(requiresOneOf(['data/inspections:r']))
  })
})

describe('saved reports', () => {
  it('are checked when saved and run by id', async () => {
    const bad = await api('/api/reports', { json: { _id: 'weekly', ...DEF, aggregates: [] } })
    expect(bad.status).toBe(400)
    expect((bad.body as { message: string }).message).toBe(REPORT_TEXT.aggregates(10))
    expect((await api('/api/reports', { json: { _id: 'weekly', title: 'Weekly', ...DEF } })).status).toBe(201)
    const patch = await api('/api/reports/weekly', { method: 'PATCH', json: { view: 'radar' } })
    expect(patch.status).toBe(400)
    const run = await api('/api/reports/weekly/run')
    expect(run.status).toBe(200)
    expect(run.body).toEqual(computeReport(DEF, await stored()))
  })
})
