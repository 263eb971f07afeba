/**
 * Scenario 10 of the sync issue in real Chromium against the real server: an epoch change rebuilds
 * the mirror and keeps the outbox. Writes are queued offline, the epoch changes, the browser comes
 * back: the engine meets 410 (or `gone`), clears the mirror, pulls again from cursor 0 under the new
 * epoch, and the queued writes are delivered once. Two real causes of a new epoch
 * (docs/contributing/sync-protocol.md "Epoch"), neither needing a route that production does not have:
 * - the data set is restored: the server process stops, its SQLite file is replaced by an earlier
 *   online backup and the store's own resetEpoch() is called (what a restore must do), and the server
 *   starts again on the same port, so the console keeps its origin and its local database;
 * - the user's permissions change (the epoch includes their fingerprint): an admin widens the group.
 * In both, a document only a rebuild can produce (or remove) proves the mirror was rebuilt. Converged.
 */
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { openSqliteStore } from '../../src/server/store/sqlite'
import { passwordOf, startServer } from './fixtures'
import {
  engineReady,
  expectConverged,
  freshCollection,
  localState,
  mutate,
  SyncPanel,
  writesPerDoc,
} from './pages/sync-panel'
import { expect, openLoggedIn, setNetwork, test } from './proxied'
import { startSocketProxy } from './socket-proxy'
import { changeLog, mirrorMeta } from './sync-helpers'

const ids = async (page: Parameters<typeof localState>[0], collection: string) =>
  (await localState(page, collection)).docs.map((d) => d._id).sort()

test('the server restored from a backup with a new epoch: mirror rebuilt, outbox delivered', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000)
  // A server of this test's own: it is stopped and restarted, which the shared one must not be.
  let current = await startServer('none')
  const { dataDir } = current.server
  const port = new URL(current.server.url).port
  try {
    const server = current.server
    const { collection } = freshCollection('restore')
    const token = await server.login()
    await server.api(`/api/${collection}`, { token, json: { _id: 'kept', name: 'Kept', price: 1 } })
    const file = path.join(dataDir, 'momentum.db')
    const backup = path.join(dataDir, 'backup.db')
    const live = new Database(file, { fileMustExist: true })
    await live.backup(backup)
    live.close()
    // Written after the backup: the restore loses it, and only a rebuild removes it from the mirror.
    await server.api(`/api/${collection}`, { token, json: { _id: 'after-backup', name: 'Lost in restore' } })

    // A real cut (proxied.ts): context.setOffline alone leaves the sync worker's requests and socket
    // through, so a write queued "offline" could reach the server before the pending count is read.
    const link = await startSocketProxy(server.url)
    try {
      await openLoggedIn(page, link.via(server), token, '/')
      await engineReady(page)
      await expect.poll(() => ids(page, collection)).toEqual(['after-backup', 'kept'])
      const before = await mirrorMeta(page)

      const sync = new SyncPanel(page)
      await setNetwork(context, link, 'offline')
      await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
      expect((await mutate(page, 'create', collection, 'queued', { name: 'Queued offline' })).ok).toBe(true)
      expect((await mutate(page, 'patch', collection, 'kept', { price: 2 })).ok).toBe(true)
      await expect(sync.pendingCount).toHaveText('2')

      // The restore: stop, put the backup in place, start a new epoch, start again on the same port.
      await current.stop(true)
      for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
      fs.copyFileSync(backup, file)
      const store = openSqliteStore(file)
      const oldEpoch = await store.epoch()
      const newEpoch = await store.resetEpoch()
      expect(newEpoch).not.toBe(oldEpoch)
      await store.close()
      current = await startServer('none', { PORT: port }, dataDir)
      expect(current.server.url).toBe(server.url)

      await setNetwork(context, link, 'online')
      await expect(sync.pendingCount).toBeHidden({ timeout: 30_000 })
      await expect.poll(() => ids(page, collection)).toEqual(['kept', 'queued'])
      const after = await mirrorMeta(page)
      expect(after.epoch).not.toBe(before.epoch)
      expect(after.epoch).toBe((await changeLog(current.server, token)).epoch)
      expect((await current.server.api(`/api/${collection}/after-backup`, { token })).status).toBe(404)
      expect((await current.server.api(`/api/${collection}/kept`, { token })).body).toMatchObject({
        price: 2,
        _rev: 2,
      })
      expect(await writesPerDoc(current.server, token, collection)).toEqual({ kept: 2, queued: 1 })
      await expectConverged(page, current.server, token, collection)
    } finally {
      await link.close()
    }
  } finally {
    await current.stop()
  }
})

test('the user’s permissions change the epoch: mirror rebuilt, outbox delivered', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const { collection } = freshCollection('perm')
  const { collection: other } = freshCollection('newly-readable')
  const user = `epoch-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  await server.createUser(user, [`${collection}:crud`])
  const admin = await server.login()
  await server.api(`/api/${collection}`, { token: admin, json: { _id: 'seen', v: 1 } })
  // Written before the user may read it: an incremental pull would never fetch it again.
  await server.api(`/api/${other}`, { token: admin, json: { _id: 'hidden', v: 1 } })
  const token = await server.login(user, passwordOf(user))
  await openLoggedIn(page, through, token, '/')
  await engineReady(page)
  await expect.poll(() => ids(page, collection)).toEqual(['seen'])
  expect(await ids(page, other)).toEqual([])
  const before = await mirrorMeta(page)

  const sync = new SyncPanel(page)
  await setNetwork(context, link, 'offline')
  await expect(sync.indicator).toHaveAttribute('data-state', 'offline')
  expect((await mutate(page, 'create', collection, 'queued', { v: 1 })).ok).toBe(true)
  expect((await mutate(page, 'patch', collection, 'seen', { v: 2 })).ok).toBe(true)
  await expect(sync.pendingCount).toHaveText('2')
  const widened = await server.api(`/api/groups/g-${user}`, {
    method: 'PATCH',
    token: admin,
    json: { permissions: [`${collection}:crud`, `${other}:r`] },
  })
  expect(widened.status).toBe(200)

  await setNetwork(context, link, 'online')
  await expect(sync.pendingCount).toBeHidden({ timeout: 30_000 })
  await expect.poll(() => ids(page, other)).toEqual(['hidden'])
  const after = await mirrorMeta(page)
  expect(after.epoch).not.toBe(before.epoch)
  expect(after.epoch).toBe((await changeLog(server, token)).epoch)
  expect((await server.api(`/api/${collection}/seen`, { token })).body).toMatchObject({ v: 2, _rev: 2 })
  expect(await writesPerDoc(server, token, collection)).toEqual({ seen: 2, queued: 1 })
  await expectConverged(page, server, token, collection)
  await expectConverged(page, server, token, other)
})
