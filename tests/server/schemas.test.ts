/**
 * Collection schemas against the real server (issue 17, docs/operating/schemas.md): a schema keyed by a
 * collection's path is checked when saved (a bad one is refused with ajv's reason), and every write
 * to the collection — POST, PUT, PATCH (after merging), /api/batch (the outbox replay), and a write
 * straight to the store as form submissions make — answers 400 with one message per field. Documents
 * written before the schema stay readable and are listed by the conformance report.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { BatchResult } from '../../src/server/data/batch-routes'
import type { ConformanceReport } from '../../src/server/schemas/routes'
import { SCHEMA_TEXT, SERVER_TEXT } from '../../src/shared/texts'
import type { ApiInit } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const api = (path: string, init: ApiInit = {}) => server.api(path, { token: server.admin, ...init })

const INSPECTION = {
  type: 'object',
  required: ['site', 'inspector', 'score'],
  properties: {
    site: { type: 'string', minLength: 2 },
    inspector: { type: 'string', format: 'email' },
    score: { type: 'integer', minimum: 0, maximum: 10 },
    status: { enum: ['open', 'closed'] },
    address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
    photos: { type: 'array', items: { type: 'string' }, maxItems: 2 },
  },
}

const server = suiteServer()
beforeAll(async () => {
  // Written before any schema: must survive it and be reported.
  await api('/api/data/inspections', { json: { _id: 'old-bad', site: 'X', score: 'high' } })
  await api('/api/data/inspections', {
    json: { _id: 'old-good', site: 'Depot', inspector: 'a@b.co', score: 3 },
  })
  const saved = await api('/api/schemas', { json: { _id: 'data.inspections', schema: INSPECTION } })
  expect(saved.status).toBe(201)
})

describe('saving a schema', () => {
  it('refuses a schema that is not valid JSON Schema, with the reason', async () => {
    const res = await api('/api/schemas', {
      json: { _id: 'data.broken', schema: { type: 'object', properties: { n: { type: 'numbr' } } } },
    })
    expect(res.status).toBe(400)
    const message = (res.body as { message: string }).message
    expect(message.startsWith(SCHEMA_TEXT.schemaInvalid(''))).toBe(true)
    expect(message).toContain('properties/n/type')
    expect((await api('/api/schemas/data.broken')).status).toBe(404)
  })

  it('refuses a patch that breaks a saved schema, and an id that names no collection', async () => {
    const bad = await api('/api/schemas/data.inspections', {
      method: 'PATCH',
      json: { schema: { minimum: 'x' } },
    })
    expect(bad.status).toBe(400)
    const noPath = await api('/api/schemas', { json: { _id: 'not.a.path', schema: {} } })
    expect(noPath.status).toBe(400)
    expect((noPath.body as { message: string }).message).toBe(SCHEMA_TEXT.schemaPathInvalid)
  })
})

describe('writes to a collection with a schema', () => {
  it('answers 400 with one message per field on POST', async () => {
    const res = await api('/api/data/inspections', {
      json: { _id: 'n1', site: 'A', inspector: 'not-an-address', score: 11, status: 'pending', address: {} },
    })
    expect(res.status).toBe(400)
    const fields = {
      'address.city': SCHEMA_TEXT.required,
      inspector: SERVER_TEXT.invalidEmail,
      score: SCHEMA_TEXT.maximum(10),
      site: SCHEMA_TEXT.minLength(2),
      status: SCHEMA_TEXT.enum(['open', 'closed']),
    }
    expect(res.body).toEqual({ error: 'bad_request', message: SCHEMA_TEXT.documentRejected(fields), fields })
    // The message names every field, so an outbox write refused on replay explains itself in the inbox.
    expect((res.body as { message: string }).message).toContain(
      'score: Must be at most 10; site: Must be at least 2 characters',
    )
    expect(await server.services.store.get('data/inspections', 'n1')).toBeNull()
  })

  it('accepts a conforming document, and ignores the store fields (_id, _rev …)', async () => {
    const res = await api('/api/data/inspections', {
      json: { _id: 'ok1', site: 'Depot', inspector: 'ada@example.org', score: 7, status: 'open' },
    })
    expect(res.status).toBe(201)
  })

  it('checks a PATCH on the merged document and a PUT as sent', async () => {
    const patch = await api('/api/data/inspections/ok1', { method: 'PATCH', json: { score: -1, site: null } })
    expect(patch.status).toBe(400)
    expect((patch.body as { fields: unknown }).fields).toEqual({
      score: SCHEMA_TEXT.minimum(0),
      site: SCHEMA_TEXT.required,
    })
    const put = await api('/api/data/inspections/ok1', { method: 'PUT', json: { site: 'Depot' } })
    expect(put.status).toBe(400)
    expect((put.body as { fields: unknown }).fields).toEqual({
      inspector: SCHEMA_TEXT.required,
      score: SCHEMA_TEXT.required,
    })
    const fine = await api('/api/data/inspections/ok1', { method: 'PATCH', json: { photos: ['a.jpg'] } })
    expect(fine.status).toBe(200)
  })

  it('refuses a bad entry of /api/batch (the outbox replay) alone, with its fields', async () => {
    const res = await api('/api/batch', {
      json: {
        mutations: [
          {
            method: 'POST',
            path: '/api/data/inspections',
            body: { _id: 'b1', site: 'Yard', inspector: 'x@y.io', score: 1 },
          },
          { method: 'POST', path: '/api/data/inspections', body: { _id: 'b2', site: 'Yard', score: 'x' } },
          { method: 'PATCH', path: '/api/data/inspections/b1', body: { photos: ['1', '2', '3'] } },
        ],
      },
    })
    expect(res.status).toBe(200)
    const results = (res.body as { results: BatchResult[] }).results
    expect(results.map((r) => r.status)).toEqual([201, 400, 400])
    expect((results[1]!.body as { fields: unknown }).fields).toEqual({
      inspector: SCHEMA_TEXT.required,
      score: SCHEMA_TEXT.type('integer'),
    })
    expect((results[2]!.body as { fields: unknown }).fields).toEqual({ photos: SCHEMA_TEXT.maxItems(2) })
    expect(await server.services.store.get('data/inspections', 'b1')).toMatchObject({ site: 'Yard' })
  })

  it('holds for writes made straight to the store (form submissions) too', async () => {
    await expect(
      server.services.store.write(
        { op: 'create', collection: 'data/inspections', body: { site: 'Z' } },
        { user: null },
      ),
    ).rejects.toMatchObject({ status: 400, details: { fields: { inspector: SCHEMA_TEXT.required } } })
  })

  it('applies a changed schema at once, and none once it is deleted', async () => {
    await api('/api/schemas/data.inspections', {
      method: 'PATCH',
      json: { schema: { ...INSPECTION, required: ['site'] } },
    })
    expect((await api('/api/data/inspections', { json: { site: 'Dock' } })).status).toBe(201)
    await api('/api/schemas/data.inspections', { method: 'PATCH', json: { schema: INSPECTION } })
    expect((await api('/api/data/inspections', { json: { site: 'Dock' } })).status).toBe(400)
    await api('/api/schemas', { json: { _id: 'data.loose', schema: { required: ['a'] } } })
    expect((await api('/api/data/loose', { json: { b: 1 } })).status).toBe(400)
    expect((await api('/api/schemas/data.loose', { method: 'DELETE' })).status).toBe(200)
    expect((await api('/api/data/loose', { json: { b: 1 } })).status).toBe(201)
  })
})

describe('idempotent repeats', () => {
  it('replay their first answer even after the schema tightened', async () => {
    await api('/api/schemas', { json: { _id: 'data.replay', schema: { type: 'object' } } })
    const send = () =>
      api('/api/data/replay', { json: { _id: 'r1', n: 1 }, headers: { 'idempotency-key': 'k-replay' } })
    expect((await send()).status).toBe(201)
    await api('/api/schemas/data.replay', { method: 'PATCH', json: { schema: { required: ['m'] } } })
    const again = await send()
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await api('/api/data/replay', { json: { _id: 'r2', n: 1 } })).status).toBe(400)
  })
})

describe('documents written before the schema', () => {
  it('stay readable and are listed by the conformance report', async () => {
    expect((await api('/api/data/inspections/old-bad')).status).toBe(200)
    const res = await api('/api/schemas/data.inspections/conformance')
    expect(res.status).toBe(200)
    const report = res.body as ConformanceReport
    expect(report.collection).toBe('data/inspections')
    // old-bad, and the 'Dock' document saved while the schema required only a site.
    expect(report.nonConforming).toBe(2)
    expect(report.documents.find((d) => d._id === 'old-bad')).toEqual({
      _id: 'old-bad',
      fields: {
        inspector: SCHEMA_TEXT.required,
        score: SCHEMA_TEXT.type('integer'),
        site: SCHEMA_TEXT.minLength(2),
      },
    })
    expect(report.documents.some((d) => d._id === 'old-good')).toBe(false)
    expect(report.checked).toBeGreaterThanOrEqual(4)
  })

  it('needs read access to the collection as well as the schema', async () => {
    const token = await server.userWith('schema-reader', ['schemas:r'])
    const res = await server.api('/api/schemas/data.inspections/conformance', { token })
    expect(res.status).toBe(403)
  })
})
