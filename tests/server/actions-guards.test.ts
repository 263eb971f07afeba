/**
 * Two guards of actions (issue 15, docs/operating/actions.md) against the real server, driven by tickActions:
 * the EVENT loop guard (an action whose writes trigger itself, directly or through another action,
 * stops at ACTION_LIMITS.maxEventDepth with a recorded error), and the API-token scope (an action
 * saved with a token runs with no more than the token allows, and stops when the token is revoked).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { tickActions } from '../../src/server/actions/schedule'
import { ACTION_LIMITS } from '../../src/shared/actions'
import { ACTION_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
beforeAll(() => {
  server.services.actionScheduler.stop()
})

interface Run {
  status: string
  depth?: number
  cause?: string
  error?: { kind: string; message: string }
  _id: string
}

async function runsOf(id: string): Promise<Run[]> {
  const res = await server.api(`/api/actions/${id}/runs?limit=500`, { token: server.admin })
  return (res.body as Run[]).slice().reverse()
}

async function save(doc: Record<string, unknown>, token = server.admin) {
  const res = await server.api('/api/actions', { json: doc, token })
  expect(res.status, res.text).toBe(201)
  return res.body as Record<string, unknown>
}

/** Ticks until a round runs nothing new (each tick handles the changes made before it). */
async function settle(ids: string[]) {
  let last = -1
  for (let i = 0; i < 40; i++) {
    await tickActions(server.services, new Date())
    const total = (await Promise.all(ids.map(runsOf))).reduce((n, r) => n + r.length, 0)
    if (total === last) return
    last = total
  }
}

describe('the EVENT loop guard', () => {
  it('stops an action that writes to the collection it watches, with a recorded error', async () => {
    await save({
      _id: 'self-loop',
      name: 'self loop',
      trigger: { type: 'EVENT', collection: 'loops', operations: ['create', 'update'] },
      code: "await db.update('loops', input.event.id, { n: (input.event.doc.n ?? 0) + 1 })\nreturn input.event.doc.n",
    })
    await tickActions(server.services, new Date())
    await server.api('/api/data/loops', { json: { _id: 'l1', n: 0 }, token: server.admin })
    await settle(['self-loop'])
    const runs = await runsOf('self-loop')
    const max = ACTION_LIMITS.maxEventDepth
    expect(runs).toHaveLength(max + 1)
    expect(runs.slice(0, max).every((r) => r.status === 'ok')).toBe(true)
    expect(runs.map((r) => r.depth)).toEqual(Array.from({ length: max + 1 }, (_, i) => i + 1))
    const stopped = runs[max]!
    expect(stopped.status).toBe('error')
    expect(stopped.error).toEqual({ kind: 'loop', message: ACTION_TEXT.eventLoop(max, runs[max - 1]!._id) })
    expect(stopped.cause).toBe(runs[max - 1]!._id)
    // The stopped run did not write: the document holds the last counted value.
    expect((await server.services.store.get('data/loops', 'l1'))?.n).toBe(max)
    // Nothing more happens however often the scheduler looks again.
    await tickActions(server.services, new Date())
    expect(await runsOf('self-loop')).toHaveLength(max + 1)
  })

  it('stops two actions that trigger each other', async () => {
    await save({
      _id: 'ping',
      name: 'ping',
      trigger: { type: 'EVENT', collection: 'pings', operations: ['create'] },
      code: "await db.create('pongs', { n: input.event.doc.n + 1 })",
    })
    await save({
      _id: 'pong',
      name: 'pong',
      trigger: { type: 'EVENT', collection: 'pongs', operations: ['create'] },
      code: "await db.create('pings', { n: input.event.doc.n + 1 })",
    })
    await tickActions(server.services, new Date())
    await server.api('/api/data/pings', { json: { n: 0 }, token: server.admin })
    await settle(['ping', 'pong'])
    const all = [...(await runsOf('ping')), ...(await runsOf('pong'))]
    const max = ACTION_LIMITS.maxEventDepth
    expect(all.filter((r) => r.status === 'ok')).toHaveLength(max)
    const stopped = all.filter((r) => r.status === 'error')
    expect(stopped).toHaveLength(1)
    expect(stopped[0]!.error!.kind).toBe('loop')
    expect(stopped[0]!.depth).toBe(max + 1)
  })

  it('lets a write by a person start a fresh chain, even one that forges a run as its cause', async () => {
    // The cause travels in the write's idempotency key; a client's own key cannot pass for a run's.
    const forged = `action-run:${ACTION_LIMITS.maxEventDepth}:fake:nonce:${'0'.repeat(64)}`
    const res = await server.api('/api/data/loops/l1', {
      method: 'PATCH',
      json: { n: 100 },
      token: server.admin,
      headers: { 'idempotency-key': forged },
    })
    expect(res.status, res.text).toBe(200)
    await settle(['self-loop'])
    const runs = await runsOf('self-loop')
    const fresh = runs.slice(ACTION_LIMITS.maxEventDepth + 1)
    expect(fresh[0]).toMatchObject({ status: 'ok', depth: 1 })
  })
})

describe('actions saved with an API token', () => {
  it('run with no more than the token allows, and stop when it is revoked', async () => {
    // The owner may do everything; the token only edit actions and read contacts.
    const made = await server.api('/api/tokens', {
      json: { name: 'ci', permissions: ['actions:*', 'data/contacts:r'] },
      token: server.admin,
    })
    expect(made.status, made.text).toBe(201)
    const { token, _id: tokenId } = made.body as { token: string; _id: string }
    await server.api('/api/data/contacts', { json: { _id: 'c1', name: 'Ann' }, token: server.admin })
    const saved = await save(
      {
        _id: 'by-token',
        name: 'by token',
        trigger: { type: 'POST' },
        code: "const c = await db.get('contacts', 'c1')\nif (input.body.write) await db.create('orders', { by: 'token' })\nreturn c.name",
      },
      token,
    )
    expect(saved).toMatchObject({ runAs: 'admin', runAsToken: tokenId })
    const read = await server.api('/api/actions/run/by-token', { json: {}, token: server.admin })
    expect(read.status, read.text).toBe(200)
    expect(read.body).toBe('Ann')
    // The admin may write orders; the token may not, so neither may the action.
    const write = await server.api('/api/actions/run/by-token', {
      json: { write: true },
      token: server.admin,
    })
    expect(write.status).toBe(422)
    expect(write.text).toContain(ACTION_TEXT.dbForbidden('data/orders:c'))
    // A client cannot pick the token its action runs under.
    const forged = await save({
      _id: 'forged',
      name: 'forged',
      trigger: { type: 'POST' },
      code: '',
      runAsToken: 'someone-elses',
    })
    expect(forged.runAsToken).toBeUndefined()
    // Revoked: the action stops instead of falling back to the owner's full rights.
    expect(
      (await server.api(`/api/tokens/${tokenId}`, { method: 'DELETE', token: server.admin })).status,
    ).toBe(200)
    const gone = await server.api('/api/actions/run/by-token', { json: {}, token: server.admin })
    expect(gone.status).toBe(422)
    expect((gone.body as { message: string }).message).toBe(ACTION_TEXT.tokenGone)
    // Saved again through a login session, it runs with the saver's rights.
    const patched = await server.api('/api/actions/by-token', {
      method: 'PATCH',
      json: { description: 'mine now' },
      token: server.admin,
    })
    expect(patched.status, patched.text).toBe(200)
    expect((patched.body as Record<string, unknown>).runAsToken).toBeUndefined()
    const again = await server.api('/api/actions/run/by-token', {
      json: { write: true },
      token: server.admin,
    })
    expect(again.status, again.text).toBe(200)
  })
})
