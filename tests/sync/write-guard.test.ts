/**
 * Issue 11: a write the session's permissions do not allow is refused by the mutation API before it
 * reaches the outbox, with the "You cannot …: it requires the permission …" message, per document path
 * (a per-document block counts), while allowed writes, and the server-judged own-profile edit, still go
 * through. A real engine on fake-indexeddb against the real server; the guard wraps its mutation API as
 * the console's useMutate() does (src/app/data/sync-context.tsx).
 */
import 'fake-indexeddb/auto'
import { beforeAll, expect, test } from 'vitest'
import { getVisible } from '../../src/db/mirror'
import { cannotDo } from '../../src/shared/texts'
import type { SyncEngine } from '../../src/sync/engine'
import { guardWrites, WriteRefusedError } from '../../src/sync/write-guard'
import { suiteServer } from '../helpers/suite-server'
import { harness, settle } from './harness'

const server = suiteServer()
beforeAll(async () => {
  for (const id of ['n1', 'open', 'locked']) {
    const res = await server.api('/api/data/guardnotes', { token: server.admin, json: { _id: id, text: id } })
    expect(res.status).toBe(201)
  }
})

async function open(user: string, permissions: string[]) {
  const token = await server.userWith(user, permissions)
  const h = harness(server, user, token)
  const engine = await h.open()
  await settle(engine)
  // Offline, so what is queued stays in the outbox to be counted (the leader would send it at once).
  h.net.offline = true
  const mutate = guardWrites(engine.mutate, {
    permissions: () => permissions,
    user: () => user,
    exists: async (c, id) => (await getVisible(engine.db, c, id)) !== undefined,
  })
  return { engine, mutate, net: h.net }
}

const outbox = (engine: SyncEngine) => engine.db.outbox.count()

test('a read-only session: save, put, create and delete are refused before the outbox', async () => {
  const { engine, mutate } = await open('guard-viewer', ['data:r'])
  expect((await getVisible(engine.db, 'data/guardnotes', 'n1'))?.text).toBe('n1')

  const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(WriteRefusedError)
  await expect(mutate.patch('data/guardnotes', 'n1', { text: 'x' })).rejects.toThrow(
    cannotDo('change', 'data/guardnotes/n1', 'data/guardnotes/n1:u'),
  )
  await refused(mutate.put('data/guardnotes', 'n1', { text: 'x' }))
  await expect(mutate.put('data/guardnotes', 'n1', { text: 'x' })).rejects.toMatchObject({
    needed: 'data/guardnotes/n1:u',
  })
  await expect(mutate.create('data/guardnotes', { text: 'new' }, 'n2')).rejects.toThrow(
    cannotDo('create', 'documents in data/guardnotes', 'data/guardnotes:c'),
  )
  // A put of a document this device does not have is a create (an import by _id).
  await expect(mutate.put('data/guardnotes', 'n3', { text: 'x' })).rejects.toMatchObject({
    needed: 'data/guardnotes:c',
  })
  await expect(mutate.delete('data/guardnotes', 'n1')).rejects.toThrow(
    cannotDo('delete', 'data/guardnotes/n1', 'data/guardnotes/n1:d'),
  )

  expect(await outbox(engine)).toBe(0)
  expect((await getVisible(engine.db, 'data/guardnotes', 'n1'))?.text).toBe('n1')
  expect(await getVisible(engine.db, 'data/guardnotes', 'n2')).toBeUndefined()
  await engine.close()
})

test('a per-document block counts; allowed writes and the own profile still reach the outbox', async () => {
  const perms = ['data/guardnotes:*', 'data/guardnotes/locked:n', 'users/guard-editor:r']
  const { engine, mutate, net } = await open('guard-editor', perms)
  await mutate.patch('data/guardnotes', 'open', { text: 'edited' })
  expect(await outbox(engine)).toBe(1)
  await expect(mutate.patch('data/guardnotes', 'locked', { text: 'x' })).rejects.toMatchObject({
    needed: 'data/guardnotes/locked:u',
  })
  await expect(mutate.delete('data/guardnotes', 'locked')).rejects.toBeInstanceOf(WriteRefusedError)
  expect(await outbox(engine)).toBe(1)
  // Editing your own name needs no users:u: the server judges the fields, so the guard lets it pass.
  await mutate.patch('users', 'guard-editor', { name: 'Guard Editor' })
  expect(await outbox(engine)).toBe(2)
  await expect(mutate.patch('users', 'admin', { name: 'x' })).rejects.toMatchObject({
    needed: 'users/admin:u',
  })
  net.offline = false
  await settle(engine)
  expect(await outbox(engine)).toBe(0)
  const saved = await server.api('/api/data/guardnotes/open', { token: server.admin })
  expect(saved.body).toMatchObject({ text: 'edited' })
  await engine.close()
})
