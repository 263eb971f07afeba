/**
 * The logs API against the real server: posting single lines and batches from any logged-in user,
 * validation (levels, text, time, channel names, the reserved `server` channel of SPEC §5), reading
 * newest first with level/q/from/to filters and paging, channel listing by permission, the server's
 * own log behind logs/server:r, and deleting a channel (tombstones) or a single line (If-Match).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Doc } from '../../src/server/store/types'
import { LOG_LEVELS } from '../../src/shared/constants'
import { LOG_TEXT, SERVER_TEXT } from '../../src/shared/texts'
import type { ApiInit } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

let nobody: string

const api = (path: string, init: ApiInit = {}) => server.api(path, { token: server.admin, ...init })
const lines = (body: unknown) => (body as Doc[]).map((d) => d.log)

const server = suiteServer()
beforeAll(async () => {
  nobody = await server.userWith('nobody', null)
})

describe('POST /api/logs/{channel}', () => {
  it('lets any logged-in user log to the client channel, stamping the time', async () => {
    const before = Date.now()
    const res = await server.api('/api/logs/client', {
      json: { level: 'error', log: 'TypeError: x is undefined', ctx: { url: '/ui/users' }, extra: 'dropped' },
      token: nobody,
    })
    expect(res.status).toBe(201)
    const line = res.body as Doc
    expect(line).toMatchObject({
      level: 'ERROR',
      log: 'TypeError: x is undefined',
      ctx: { url: '/ui/users' },
    })
    expect(line).not.toHaveProperty('extra')
    expect(line._updatedBy).toBe('nobody')
    expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(before - 1000)
    expect(await server.services.store.get('logs/client', line._id)).toMatchObject({ log: line.log })
    expect((await server.api('/api/logs/client', { json: { level: 'INFO', log: 'x' } })).status).toBe(401)
    // Writing is open, reading is not.
    expect((await server.api('/api/logs/client', { token: nobody })).status).toBe(403)
  })

  it('takes a batch in one request and keeps given times', async () => {
    const batch = LOG_LEVELS.map((level, i) => ({
      level,
      log: `batch ${level}`,
      time: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }))
    const res = await api('/api/logs/batch', { json: batch })
    expect(res.status).toBe(201)
    expect((res.body as Doc[]).map((d) => [d.level, d.time])).toEqual(batch.map((b) => [b.level, b.time]))
    const epoch = await api('/api/logs/batch', {
      json: { level: 'LOG', log: 'epoch ms', time: Date.UTC(2025, 5, 1) },
    })
    expect((epoch.body as Doc).time).toBe('2025-06-01T00:00:00.000Z')
  })

  it('refuses the reserved server channel with the spec message, and bad names and entries', async () => {
    const reserved = await api('/api/logs/server', { json: { level: 'INFO', log: 'forged' } })
    expect(reserved.status).toBe(400)
    expect(reserved.body).toEqual({ error: 'bad_request', message: SERVER_TEXT.serverChannelReserved })
    const cases: Array<[string, unknown, string]> = [
      ['channels', { level: 'INFO', log: 'x' }, LOG_TEXT.channelsReserved],
      ['..%2Fserver', { level: 'INFO', log: 'x' }, SERVER_TEXT.invalidCollection],
      ['_internal', { level: 'INFO', log: 'x' }, SERVER_TEXT.invalidCollection],
      ['client', { level: 'FATAL', log: 'x' }, LOG_TEXT.badLevel(LOG_LEVELS)],
      ['client', { log: 'x' }, LOG_TEXT.badLevel(LOG_LEVELS)],
      ['client', { level: 'INFO' }, 'needs log as a string'],
      ['client', { level: 'INFO', log: { nested: true } }, 'needs log as a string'],
      ['client', { level: 'INFO', log: 'x'.repeat(70_000) }, 'needs log as a string'],
      ['client', { level: 'INFO', log: 'x', time: 'yesterday' }, LOG_TEXT.badTime],
      ['client', 'just text', LOG_TEXT.badEntry],
      ['client', [], LOG_TEXT.badCount(1000)],
      [
        'client',
        [
          { level: 'INFO', log: 'ok' },
          { level: 'NOPE', log: 'bad' },
        ],
        LOG_TEXT.badLevel(LOG_LEVELS),
      ],
    ]
    const { total } = await server.services.store.list('logs/client', { limit: 0 })
    for (const [channel, json, message] of cases) {
      const res = await api(`/api/logs/${channel}`, { json })
      expect(res.status, `${channel} ${JSON.stringify(json).slice(0, 60)}`).toBe(400)
      expect((res.body as { message: string }).message).toContain(message)
    }
    // A batch with one bad line writes none of it.
    expect((await server.services.store.list('logs/client', { limit: 0 })).total).toBe(total)
    expect((await server.services.store.list('logs/server', { filter: { log: 'forged' } })).total).toBe(0)
  })

  it('writes a batch once per Idempotency-Key', async () => {
    const init = {
      json: [
        { level: 'INFO', log: 'idem a' },
        { level: 'INFO', log: 'idem b' },
      ],
      headers: { 'idempotency-key': 'log-1' },
    }
    const first = await api('/api/logs/idem', init)
    const second = await api('/api/logs/idem', init)
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(second.body).toEqual(first.body)
    expect((await server.services.store.list('logs/idem', { limit: 0 })).total).toBe(2)
  })
})

describe('GET /api/logs/{channel}', () => {
  beforeAll(async () => {
    const entries = [
      { level: 'ERROR', log: 'Payment failed (card) for order 1', time: '2026-03-01T10:00:00.000Z' },
      { level: 'WARN', log: 'Slow response from /api/users', time: '2026-03-01T11:00:00.000Z' },
      { level: 'INFO', log: 'User alice logged in', time: '2026-03-02T09:00:00.000Z' },
      { level: 'ERROR', log: 'payment FAILED again', time: '2026-03-03T12:00:00.000Z' },
      { level: 'DEBUG', log: 'cache (hit) ratio 0.9', time: '2026-03-04T08:00:00.000Z' },
    ]
    await api('/api/logs/app', { json: entries })
  })

  it('lists newest first with X-Total-Count and pages', async () => {
    const all = await api('/api/logs/app')
    expect(all.status).toBe(200)
    expect(all.headers.get('x-total-count')).toBe('5')
    expect((all.body as Doc[]).map((d) => d.time)).toEqual([
      '2026-03-04T08:00:00.000Z',
      '2026-03-03T12:00:00.000Z',
      '2026-03-02T09:00:00.000Z',
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T10:00:00.000Z',
    ])
    const page = await api('/api/logs/app?limit=2&offset=1')
    expect(lines(page.body)).toEqual(['payment FAILED again', 'User alice logged in'])
    expect(page.headers.get('x-total-count')).toBe('5')
  })

  it('filters by level, text (case-insensitive, literally) and time range', async () => {
    expect(lines((await api('/api/logs/app?level=ERROR')).body)).toEqual([
      'payment FAILED again',
      'Payment failed (card) for order 1',
    ])
    expect(lines((await api('/api/logs/app?level=warn,debug')).body)).toEqual([
      'cache (hit) ratio 0.9',
      'Slow response from /api/users',
    ])
    expect(lines((await api('/api/logs/app?q=payment%20failed')).body)).toHaveLength(2)
    expect(lines((await api(`/api/logs/app?q=${encodeURIComponent('(hit)')}`)).body)).toEqual([
      'cache (hit) ratio 0.9',
    ])
    expect(lines((await api(`/api/logs/app?q=${encodeURIComponent('.*')}`)).body)).toEqual([])
    const range = await api('/api/logs/app?from=2026-03-01T10:30:00Z&to=2026-03-03T12:00:00Z')
    expect(lines(range.body)).toEqual([
      'payment FAILED again',
      'User alice logged in',
      'Slow response from /api/users',
    ])
    const combined = await api('/api/logs/app?level=ERROR&from=2026-03-02')
    expect(lines(combined.body)).toEqual(['payment FAILED again'])
    expect((await api('/api/logs/app?level=LOUD')).status).toBe(400)
    expect((await api('/api/logs/app?from=soon')).status).toBe(400)
  })
})

describe('channels and permissions', () => {
  it('lists the channels the caller may read', async () => {
    const all = await api('/api/logs/channels')
    const names = (all.body as Array<{ name: string; count: number }>).map((c) => c.name)
    expect(names).toEqual(expect.arrayContaining(['app', 'batch', 'client', 'server']))
    const clientOnly = await server.userWith('client-reader', ['logs/client:r'])
    const mine = await server.api('/api/logs/channels', { token: clientOnly })
    expect(mine.body).toEqual([{ name: 'client', count: expect.any(Number) }])
  })

  it('reading the server log needs logs/server:r', async () => {
    const res = await api('/api/logs/server')
    expect(res.status).toBe(200)
    expect(lines(res.body)).toContain('First start: created the admin user and default settings')
    const clientOnly = await server.userWith('client-reader-2', ['logs/client:r'])
    const denied = await server.api('/api/logs/server', { token: clientOnly })
    expect(denied.status).toBe(403)
    expect((denied.body as { message: string }).message).toBe('Requires one of: logs/server:r')
    const serverReader = await server.userWith('server-reader', ['logs/server:r'])
    expect((await server.api('/api/logs/server', { token: serverReader })).status).toBe(200)
  })
})

describe('DELETE', () => {
  it('deletes one line with If-Match, and a whole channel leaving tombstones', async () => {
    const made = await api('/api/logs/trash', {
      json: [
        { level: 'INFO', log: 'one' },
        { level: 'INFO', log: 'two' },
      ],
    })
    const [one, two] = made.body as Doc[]
    const deleter = await server.userWith('deleter', ['logs/trash:r'])
    expect(
      (await server.api(`/api/logs/trash/${one!._id}`, { method: 'DELETE', token: deleter })).status,
    ).toBe(403)

    const stale = await api(`/api/logs/trash/${one!._id}`, { method: 'DELETE', headers: { 'if-match': '7' } })
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({ current: { _id: one!._id, log: 'one' } })
    const del = await api(`/api/logs/trash/${one!._id}`, { method: 'DELETE', headers: { 'if-match': '1' } })
    expect(del.status).toBe(200)
    expect((await api(`/api/logs/trash/${one!._id}`, { method: 'DELETE' })).status).toBe(404)

    const { store } = server.services
    const head = await store.headSeq()
    expect((await server.api('/api/logs/trash', { method: 'DELETE', token: deleter })).status).toBe(403)
    const clear = await api('/api/logs/trash', { method: 'DELETE' })
    expect(clear.body).toEqual({ ok: true, deleted: 1 })
    // Only this channel's rows: the refused DELETE above writes a security line to logs/server.
    const changes = (await store.changes(head, 100)).changes.filter((c) => c.collection === 'logs/trash')
    expect(changes.map((c) => [c.collection, c.id, c.op])).toEqual([['logs/trash', two!._id, 'delete']])
    expect((await api('/api/logs/trash')).body).toEqual([])
  })
})
