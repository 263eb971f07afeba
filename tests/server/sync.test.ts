/**
 * GET /api/sync against the real server: paging is exact (every seq once, in order) even while
 * writers commit between and during page requests; deletes leave tombstones; permissions filter rows
 * but the cursor still advances; bad parameters are 400; another epoch or a cursor from the future is
 * 410.
 */
import { describe, expect, it } from 'vitest'
import { SYNC_PAGE_MAX } from '../../src/shared/constants'
import type { PullResponse, SyncChange } from '../../src/shared/sync-protocol'
import { SERVER_TEXT } from '../../src/shared/texts'
import { changeLog } from '../helpers/change-log'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

const store = () => server.services.store
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

async function pull(token: string, query: string): Promise<PullResponse> {
  const res = await server.api(`/api/sync?${query}`, { token })
  expect(res.status, res.text).toBe(200)
  return res.body as PullResponse
}

/** Pulls page after page until caught up; returns every change and the final cursor. */
async function pullAll(token: string, cursor: number, limit: number, between?: () => Promise<void>) {
  const changes: SyncChange[] = []
  let epoch: string | undefined
  for (;;) {
    const q = `cursor=${cursor}&limit=${limit}${epoch ? `&epoch=${encodeURIComponent(epoch)}` : ''}`
    const page = await pull(token, q)
    epoch ??= page.epoch
    expect(page.epoch).toBe(epoch)
    expect(page.cursor).toBeGreaterThanOrEqual(cursor)
    changes.push(...page.changes)
    cursor = page.cursor
    if (!page.more) return { changes, cursor, epoch }
    await between?.()
  }
}

describe('GET /api/sync', () => {
  it('pages through the log without skipping or repeating while writers commit concurrently', async () => {
    const start = await store().headSeq()
    let writing = true
    const writer = async (name: string) => {
      for (let i = 0; i < 60; i++) {
        const id = `${name}-${i % 15}`
        const existing = await store().get('data/race', id)
        if (!existing)
          await store().write({ op: 'create', collection: 'data/race', id, body: { i } }, { user: 'w' })
        else if (i % 4 === 0)
          await store().write({ op: 'delete', collection: 'data/race', id }, { user: 'w' })
        else await store().write({ op: 'patch', collection: 'data/race', id, body: { i } }, { user: 'w' })
        await tick()
      }
    }
    const writers = Promise.all(['a', 'b', 'c'].map(writer)).finally(() => {
      writing = false
    })
    const seen: SyncChange[] = []
    let cursor = start
    let rounds = 0
    // Keep pulling while the writers run, then once more after they stop: that must catch up.
    while (writing || rounds === 0) {
      const got = await pullAll(server.admin, cursor, 7, tick)
      seen.push(...got.changes)
      cursor = got.cursor
      rounds++
    }
    await writers
    const last = await pullAll(server.admin, cursor, 7)
    seen.push(...last.changes)

    const log = await changeLog(store(), start)
    expect(log.length).toBeGreaterThanOrEqual(180)
    expect(seen.map((c) => c.seq)).toEqual(log.map((c) => c.seq))
    expect(new Set(seen.map((c) => c.seq)).size).toBe(seen.length)
    expect(seen).toEqual(JSON.parse(JSON.stringify(log)))
    expect(last.cursor).toBe(await store().headSeq())
  })

  it('sends a tombstone for a delete', async () => {
    const from = await store().headSeq()
    await store().write(
      { op: 'create', collection: 'data/tomb', id: 'gone-1', body: { a: 1 } },
      { user: 'admin' },
    )
    await store().write({ op: 'delete', collection: 'data/tomb', id: 'gone-1' }, { user: 'admin' })
    const { changes } = await pullAll(server.admin, from, 50)
    const mine = changes.filter((c) => c.collection === 'data/tomb')
    expect(mine.map((c) => [c.op, c.rev])).toEqual([
      ['upsert', 1],
      ['delete', 2],
    ])
    expect(mine[0]!.doc).toMatchObject({ _id: 'gone-1', a: 1, _rev: 1 })
    expect(mine[1]!.doc).toBeNull()
  })

  it('keeps only what the user may read, and still advances the cursor past filtered rows', async () => {
    const reader = await server.userWith('reader', ['data/contacts:r'])
    const from = await store().headSeq()
    const w = (collection: string, id: string) =>
      store().write({ op: 'put', collection, id, body: { v: 1 } }, { user: 'admin' })
    await w('data/contacts', 'c1')
    await w('data/secret', 's1')
    await w('users', 'someone')
    await w('settings', 'stripe_token')
    await w('settings', 'title')
    await w('data/contacts', 'c2')
    await w('data/secret', 's2')
    const head = await store().headSeq()

    const { changes, cursor } = await pullAll(reader, from, 2)
    expect(changes.map((c) => `${c.collection}/${c.id}`)).toEqual([
      'data/contacts/c1',
      'settings/title',
      'data/contacts/c2',
    ])
    expect(cursor).toBe(head)

    // A page whose rows are all filtered out is empty, but its cursor still moves on.
    const page = await pull(reader, `cursor=${head - 1}&limit=5`)
    expect(page).toMatchObject({ changes: [], cursor: head, more: false })
  })

  it('validates cursor, limit and epoch', async () => {
    for (const q of [
      'limit=0',
      `limit=${SYNC_PAGE_MAX + 1}`,
      'limit=abc',
      'cursor=-1',
      'cursor=1.5',
      'epoch=a&epoch=b',
    ]) {
      const res = await server.api(`/api/sync?${q}`, { token: server.admin })
      expect(res.status, q).toBe(400)
      expect(res.body).toMatchObject({ error: 'bad_request', message: expect.any(String) })
    }
    const max = await pull(server.admin, `limit=${SYNC_PAGE_MAX}`)
    expect(max.changes.length).toBeLessThanOrEqual(SYNC_PAGE_MAX)
    expect((await server.api('/api/sync')).status).toBe(401)
  })

  it('answers 410 with the current epoch for another epoch or a cursor beyond the head', async () => {
    const { epoch } = await pull(server.admin, 'cursor=0&limit=1')
    const head = await store().headSeq()
    const future = await server.api(`/api/sync?cursor=${head + 10}`, { token: server.admin })
    expect(future.status).toBe(410)
    expect(future.body).toEqual({ error: 'gone', message: SERVER_TEXT.cursorExpired, epoch })

    await store().resetEpoch()
    const res = await server.api(`/api/sync?cursor=0&epoch=${encodeURIComponent(epoch)}`, {
      token: server.admin,
    })
    expect(res.status).toBe(410)
    const body = res.body as { error: string; message: string; epoch: string }
    expect(body).toMatchObject({ error: 'gone', message: SERVER_TEXT.cursorExpired })
    expect(body.epoch).not.toBe(epoch)
    // The new epoch works at once.
    const again = await pull(server.admin, `cursor=0&limit=1&epoch=${encodeURIComponent(body.epoch)}`)
    expect(again.epoch).toBe(body.epoch)
  })

  it('gives a user a new epoch when their permissions change, so the mirror is rebuilt', async () => {
    const token = await server.userWith('shifting', ['data/contacts:r'])
    const before = await pull(token, 'cursor=0&limit=1')
    await store().write(
      { op: 'put', collection: 'groups', id: 'g-shifting', body: { name: 'x', permissions: ['data:r'] } },
      { user: 'admin' },
    )
    const res = await server.api(`/api/sync?cursor=0&epoch=${encodeURIComponent(before.epoch)}`, { token })
    expect(res.status).toBe(410)
    // Everyone else's epoch is untouched.
    const adminEpoch = (await pull(server.admin, 'cursor=0&limit=1')).epoch
    expect((await pull(server.admin, `cursor=0&limit=1&epoch=${encodeURIComponent(adminEpoch)}`)).epoch).toBe(
      adminEpoch,
    )
  })
})
