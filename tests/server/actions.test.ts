/**
 * Actions (issue 15) against the real server: the collection's validation and permissions, HTTP
 * triggers callable only with the right permission and method, db calls checked as the run-as user,
 * debug runs with logs, timing and dry-run writes, and run records.
 */
import { describe, expect, it } from 'vitest'
import { pruneRuns } from '../../src/server/actions/run'
import { ACTION_TEXT, DELEGATION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

async function create(doc: Record<string, unknown>, token = server.admin) {
  const res = await server.api('/api/actions', { json: doc, token })
  expect(res.status, res.text).toBe(201)
  return res.body as { _id: string; runAs: string; enabled: boolean }
}

const http = (id: string, method: string, code: string, extra: Record<string, unknown> = {}) =>
  create({ _id: id, name: id, trigger: { type: method }, code, ...extra })

describe('the actions collection', () => {
  it('validates the whole document with clear 400s', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ trigger: { type: 'GET' }, code: '' }, ACTION_TEXT.nameInvalid],
      [{ name: 'a', trigger: { type: 'NOPE' }, code: '' }, ACTION_TEXT.triggerInvalid],
      [{ name: 'a', trigger: { type: 'GET' } }, ACTION_TEXT.codeInvalid],
      [{ name: 'a', trigger: { type: 'CRON' }, code: '' }, ACTION_TEXT.cronMissing],
      [
        { name: 'a', trigger: { type: 'EVENT', collection: 'c', operations: ['x'] }, code: '' },
        ACTION_TEXT.eventOperationsInvalid,
      ],
      [{ name: 'a', trigger: { type: 'GET' }, code: '', timeLimitMs: 60_000 }, ACTION_TEXT.timeLimitInvalid],
      [
        { name: 'a', trigger: { type: 'GET' }, code: '', memoryLimitBytes: 1e12 },
        ACTION_TEXT.memoryLimitInvalid,
      ],
    ]
    for (const [doc, message] of cases) {
      const res = await server.api('/api/actions', { json: doc, token: server.admin })
      expect(res.status, JSON.stringify(doc)).toBe(400)
      expect((res.body as { message: string }).message ?? res.text).toContain(message)
    }
    const saved = await create({ _id: 'valid', name: 'Valid', trigger: { type: 'GET' }, code: 'return 1' })
    expect(saved).toMatchObject({ runAs: 'admin', enabled: true })
    const patched = await server.api('/api/actions/valid', {
      method: 'PATCH',
      json: { trigger: { type: 'X' } },
      token: server.admin,
    })
    expect(patched.status).toBe(400)
  })

  it('lets only a user who may update users make an action run as someone else', async () => {
    const editor = await server.userWith('act-editor', ['actions:*'])
    const res = await server.api('/api/actions', {
      json: { name: 'borrow', trigger: { type: 'GET' }, code: 'return 1', runAs: 'admin' },
      token: editor,
    })
    expect(res.status).toBe(403)
    const own = await create({ name: 'own', trigger: { type: 'GET' }, code: 'return 1' }, editor)
    expect(own.runAs).toBe('act-editor')
    // Editing an action that runs as someone else is borrowing their rights too.
    await create({ _id: 'admins', name: 'admins', trigger: { type: 'GET' }, code: 'return 1' })
    const edit = await server.api('/api/actions/admins', {
      method: 'PATCH',
      json: { code: 'return 2' },
      token: editor,
    })
    expect(edit.status).toBe(403)
    // Its words: the right to change admin's account (tests/server/actions-delegation.test.ts has the rest).
    expect((edit.body as { message: string }).message).toBe(
      DELEGATION_TEXT.needs(ACTION_TEXT.actAsWhat('admin'), 'users/admin:u'),
    )
    const takeOver = await server.api('/api/actions/admins', {
      method: 'PATCH',
      json: { code: 'return 2', runAs: 'act-editor' },
      token: editor,
    })
    expect(takeOver.status).toBe(200)
  })
})

describe('HTTP triggers', () => {
  it('answers with the status, headers and body the script returns', async () => {
    await http(
      'hello',
      'POST',
      `log('got', input.body.name)\nreturn { status: 201, headers: { 'x-made-by': 'action' }, body: { hi: input.body.name } }`,
    )
    const res = await server.api('/api/actions/run/hello', { json: { name: 'Ann' }, token: server.admin })
    expect(res.status, res.text).toBe(201)
    expect(res.headers.get('x-made-by')).toBe('action')
    expect(res.body).toEqual({ hi: 'Ann' })
  })

  it('runs each method only as its trigger and only with the right permission', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const id = `m-${method.toLowerCase()}`
      await http(id, method, `return { body: input.method }`)
      const letter = { GET: 'r', POST: 'c', PUT: 'u', PATCH: 'u', DELETE: 'd' }[method]
      const right = await server.userWith(`act-run-${method.toLowerCase()}`, [`actions/run/${id}:${letter}`])
      const wrong = await server.userWith(`act-wrong-${method.toLowerCase()}`, [
        'actions/run/other:*',
        `actions/${id}:*`,
        `actions/run/${id}:${letter === 'r' ? 'c' : 'r'}`,
      ])
      const init = (token?: string) => ({
        method,
        token,
        ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
      })
      expect((await server.api(`/api/actions/run/${id}`, init())).status).toBe(401)
      expect((await server.api(`/api/actions/run/${id}`, init(wrong))).status).toBe(403)
      const ok = await server.api(`/api/actions/run/${id}`, init(right))
      expect(ok.status, ok.text).toBe(200)
      expect(ok.text).toBe(method)
      const other = method === 'GET' ? 'POST' : 'GET'
      const mismatch = await server.api(`/api/actions/run/${id}`, {
        method: other,
        token: server.admin,
        ...(other === 'POST' ? { json: {} } : {}),
      })
      expect(mismatch.status).toBe(405)
    }
  })

  it('checks db calls against the run-as user, like /api/data', async () => {
    await server.api('/api/data/notes', { json: { _id: 'n1', text: 'one' }, token: server.admin })
    await server.api('/api/data/secrets-like', { json: { _id: 's1', text: 'no' }, token: server.admin })
    const author = await server.userWith('act-db', ['actions:*', 'data/notes:*'])
    await create(
      {
        _id: 'db-ok',
        name: 'db',
        trigger: { type: 'GET' },
        code: `const n = await db.get('notes', 'n1')\nawait db.create('notes', { _id: 'n2', text: n.text + '!' })\nreturn (await db.list('notes')).map((d) => d._id)`,
      },
      author,
    )
    const ok = await server.api('/api/actions/run/db-ok', { token: server.admin })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body).toEqual(['n1', 'n2'])
    expect(await server.services.store.get('data/notes', 'n2')).toMatchObject({ text: 'one!' })
    await create(
      {
        _id: 'db-no',
        name: 'db',
        trigger: { type: 'GET' },
        code: `return await db.get('secrets-like', 's1')`,
      },
      author,
    )
    const no = await server.api('/api/actions/run/db-no', { token: server.admin })
    expect(no.status).toBe(422)
    expect(no.text).toContain('Requires one of: data/secrets-like/s1:r')
  })
})

describe('debug and run records', () => {
  it('prunes all but the newest runs of an action', async () => {
    await http('pruned', 'GET', 'return input.query.n')
    for (const n of [1, 2, 3, 4]) await server.api(`/api/actions/run/pruned?n=${n}`, { token: server.admin })
    expect(await pruneRuns(server.services, 'pruned', { keep: 2, days: 30 })).toBe(2)
    const runs = (await server.api('/api/actions/pruned/runs', { token: server.admin })).body as Array<{
      result: string
    }>
    expect(runs.map((r) => r.result)).toEqual(['4', '3'])
  })

  it('returns result, logs and timing, and records writes without doing them unless asked', async () => {
    await http(
      'dbg',
      'POST',
      `log('input is', input)\nawait db.create('dbg', { _id: 'x', v: input.v })\nreturn input.v * 2`,
    )
    const res = await server.api('/api/actions/debug/dbg', {
      json: { input: { v: 21 } },
      token: server.admin,
    })
    expect(res.status, res.text).toBe(200)
    const body = res.body as Record<string, unknown>
    expect(body).toMatchObject({ status: 'ok', result: 42, logs: ['input is {"v":21}'], committed: false })
    expect(body.writes).toEqual([{ op: 'create', collection: 'dbg', id: 'x', body: { _id: 'x', v: 21 } }])
    expect((body.timing as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(0)
    expect(await server.services.store.get('data/dbg', 'x')).toBeNull()
    const committed = await server.api('/api/actions/debug/dbg', {
      json: { input: { v: 1 }, commit: true },
      token: server.admin,
    })
    expect((committed.body as { status: string }).status).toBe('ok')
    expect(await server.services.store.get('data/dbg', 'x')).toMatchObject({ v: 1 })
    const reader = await server.userWith('act-reader', ['actions:r'])
    expect((await server.api('/api/actions/debug/dbg', { json: {}, token: reader })).status).toBe(403)
  })

  it('records every run with trigger, start, duration, status, logs and the error line', async () => {
    await http('fails', 'GET', `log('before')\n\nthrow new Error('boom')`)
    const res = await server.api('/api/actions/run/fails', { token: server.admin })
    expect(res.status).toBe(422)
    expect(res.text).toContain('boom (line 3)')
    const runs = await server.api('/api/actions/fails/runs', { token: server.admin })
    expect(runs.status).toBe(200)
    const [run] = runs.body as Array<Record<string, unknown>>
    expect(run).toMatchObject({ action: 'fails', trigger: 'GET', status: 'error', logs: ['before'] })
    expect(run!.error).toMatchObject({ kind: 'script', line: 3 })
    expect(typeof run!.start).toBe('string')
    expect(typeof run!.durationMs).toBe('number')
  })
})
