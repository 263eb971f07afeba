/**
 * Run history of actions (issue 15, docs/operating/actions.md) against the real server: pruning by the
 * `action_runs` setting (runs kept per action and their age), the history's filters, the all-actions
 * list limited to actions the caller may read, and the live tail on the websocket.
 */
import { describe, expect, it } from 'vitest'
import { pruneRuns } from '../../src/server/actions/run'
import { ACTION_RUNS_SETTING, ACTION_RUNS_TOPIC } from '../../src/shared/actions'
import { ACTION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'
import { openSocket } from './socket-client'

const server = suiteServer()

interface Run {
  _id: string
  action: string
  trigger: string
  status: string
  start: string
  result?: unknown
}

async function http(id: string, code: string, method = 'POST') {
  const res = await server.api('/api/actions', {
    json: { _id: id, name: id, trigger: { type: method }, code },
    token: server.admin,
  })
  expect(res.status, res.text).toBe(201)
}
const run = (id: string, json: unknown = {}) =>
  server.api(`/api/actions/run/${id}`, { json, token: server.admin })
const setting = (value: unknown) =>
  server.api(`/api/settings/${ACTION_RUNS_SETTING}`, {
    method: 'PATCH',
    json: { value },
    token: server.admin,
  })

describe('pruning by the action_runs setting', () => {
  it('refuses a malformed setting', async () => {
    for (const value of [{ keep: 0 }, { days: 'x' }, 5, { keep: 1.5 }]) {
      const res = await server.api('/api/settings', {
        json: { _id: ACTION_RUNS_SETTING, value },
        token: server.admin,
      })
      expect(res.status, JSON.stringify(value)).toBe(400)
      expect((res.body as { message: string }).message).toBe(ACTION_TEXT.runsSettingInvalid)
    }
  })

  it('keeps the newest runs the setting asks for', async () => {
    const created = await server.api('/api/settings', {
      json: { _id: ACTION_RUNS_SETTING, value: { keep: 2 } },
      token: server.admin,
    })
    expect(created.status, created.text).toBe(201)
    await http('kept', 'return input.body.n')
    for (const n of [1, 2, 3, 4]) expect((await run('kept', { n })).status).toBe(200)
    const runs = (await server.api('/api/actions/kept/runs', { token: server.admin })).body as Run[]
    expect(runs.map((r) => r.result)).toEqual([4, 3])
    expect((await setting({ keep: 3 })).status).toBe(200)
    await run('kept', { n: 5 })
    const more = (await server.api('/api/actions/kept/runs', { token: server.admin })).body as Run[]
    expect(more.map((r) => r.result)).toEqual([5, 4, 3])
  })

  it('deletes runs older than the days it asks for', async () => {
    expect((await setting({ keep: 100, days: 2 })).status).toBe(200)
    await http('aged', 'return 1')
    for (let i = 0; i < 3; i++) await run('aged')
    // Three days later every run is older than two days.
    const later = Date.now() + 3 * 86_400_000
    expect(await pruneRuns(server.services, 'aged', { keep: 100, days: 2 }, later)).toBe(3)
    expect((await server.api('/api/actions/aged/runs', { token: server.admin })).body).toEqual([])
  })
})

describe('the run history', () => {
  it('filters by status, trigger and time, pages with before and counts the matches', async () => {
    expect((await setting({ keep: 100 })).status).toBe(200)
    await http('mixed', 'if (input.body.fail) throw new Error("no")\nreturn input.body.n')
    for (const n of [1, 2, 3]) await run('mixed', { n })
    await run('mixed', { fail: true })
    await server.api('/api/actions/debug/mixed', { json: { input: { body: { n: 9 } } }, token: server.admin })
    const get = (q: string) => server.api(`/api/actions/mixed/runs${q}`, { token: server.admin })
    const errors = await get('?status=error')
    expect((errors.body as Run[]).map((r) => r.status)).toEqual(['error'])
    expect(errors.headers.get('x-total-count')).toBe('1')
    expect(((await get('?trigger=DEBUG')).body as Run[]).map((r) => r.result)).toEqual([9])
    const page = await get('?trigger=POST&status=ok&limit=2')
    expect((page.body as Run[]).map((r) => r.result)).toEqual([3, 2])
    expect(page.headers.get('x-total-count')).toBe('3')
    const last = (page.body as Run[])[1]!
    const older = await get(`?trigger=POST&before=${encodeURIComponent(last.start)}`)
    expect((older.body as Run[]).map((r) => r.result)).toEqual([1])
    for (const q of ['?status=maybe', '?trigger=SOMETIMES', '?before=yesterday', '?limit=0', '?limit=501']) {
      const bad = await get(q)
      expect(bad.status, q).toBe(400)
    }
  })

  it('lists the runs of every action the caller may read, and no others', async () => {
    const reader = await server.userWith('one-action', ['actions/mixed:r'])
    const res = await server.api('/api/action-runs?status=ok', { token: reader })
    expect(res.status, res.text).toBe(200)
    const runs = res.body as Run[]
    expect(runs.length).toBeGreaterThan(0)
    expect(new Set(runs.map((r) => r.action))).toEqual(new Set(['mixed']))
    const all = (await server.api('/api/action-runs?limit=500', { token: server.admin })).body as Run[]
    expect(new Set(all.map((r) => r.action))).toEqual(new Set(['kept', 'mixed']))
    const one = (await server.api('/api/action-runs?action=kept', { token: reader })).body as Run[]
    expect(one).toEqual([])
  })

  it('tails finished runs live to sockets that may read the action', async () => {
    await http('tailed', 'log("hello")\nreturn input.body.n')
    await http('hidden', 'return 0')
    const reader = await server.userWith('tail-reader', ['actions/tailed:r'])
    const socket = await openSocket(server.url, reader)
    try {
      await socket.next((m) => m.event === 'connected')
      socket.send('subscribe', { topic: ACTION_RUNS_TOPIC })
      socket.send('subscriptions')
      await socket.next((m) => m.event === 'subscriptions')
      await run('hidden')
      await run('tailed', { n: 7 })
      const frame = await socket.next((m) => m.event === ACTION_RUNS_TOPIC)
      expect(frame.payload).toMatchObject({ action: 'tailed', status: 'ok', result: 7, logs: ['hello'] })
      expect(socket.messages.filter((m) => m.event === ACTION_RUNS_TOPIC)).toHaveLength(1)
    } finally {
      await socket.close()
    }
  })
})
