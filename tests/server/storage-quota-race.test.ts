/**
 * The quota holds under parallel writes (docs/operating/storage.md "Quota", quota-holds.ts): multipart uploads,
 * copies and resumable uploads started together against a 100,000-byte quota never store more than
 * it, the rest answer 413, and every hold is let go when its write ends. Resumable uploads hold room
 * for at most TUS_OPEN_UPLOADS_MAX per user and root (429 past it) and only while they move: one idle
 * for TUS_HOLD_IDLE_MS lets it go and asks again on its next PATCH. One real server on SQLite; the
 * same across two instances on PostgreSQL is storage-quota-postgres.test.ts.
 */
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { QUOTA_HOLDS } from '../../src/server/storage/quota-holds'
import { TUS_OPEN_UPLOADS_MAX } from '../../src/shared/constants'
import { STORAGE_TEXT } from '../../src/shared/texts'
import {
  createdOrFull,
  FILE,
  form,
  holdsOf,
  QUOTA,
  quotaMessage,
  storedBytes,
  tusCreate,
} from '../helpers/storage-quota'
import { suiteServer } from '../helpers/suite-server'

function tusPatch(token: string, location: string, bytes: Uint8Array) {
  return fetch(new URL(location, server.url), {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${token}`,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    },
    body: new Uint8Array(bytes),
  })
}

const server = suiteServer({ storageQuota: { storage: QUOTA, static: QUOTA } })

async function emptyFolder(name: string): Promise<void> {
  await server.api(`/api/storage/${name}`, { method: 'DELETE', token: server.admin })
  const made = await server.api('/api/storage', { json: { directory: name }, token: server.admin })
  expect(made.status, made.text).toBe(201)
}

describe('parallel writes against the quota', () => {
  it('10 parallel 30 kB uploads store at most the quota; the rest are 413 and no hold is left', async () => {
    await emptyFolder('race')
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.api('/api/storage/race', {
          method: 'POST',
          body: form(`u${i}.bin`, crypto.randomBytes(FILE)),
          token: server.admin,
        }),
      ),
    )
    const created = createdOrFull(answers)
    const stored = await storedBytes(server, server.admin)
    expect(stored).toBeLessThanOrEqual(QUOTA)
    expect(stored).toBe(created * FILE)
    // Three fit; the moment between a file's naming and its hold's release counts it twice, so a
    // contender meeting that moment may be refused although the third would have fitted.
    expect(created).toBeGreaterThanOrEqual(2)
    expect(await holdsOf(server)).toEqual({})
  })

  it('the Web Server root keeps its own quota the same way', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.api('/api/static', {
          method: 'POST',
          body: form(`s${i}.bin`, crypto.randomBytes(FILE)),
          token: server.admin,
        }),
      ),
    )
    const created = createdOrFull(answers)
    expect(await storedBytes(server, server.admin, '', 'static')).toBe(created * FILE)
    expect(created).toBeGreaterThanOrEqual(2)
    expect(created).toBeLessThanOrEqual(3)
  })

  it('8 parallel copies of a 30 kB file store at most the quota; the rest are 413', async () => {
    await emptyFolder('race')
    const one = await server.api('/api/storage/race', {
      method: 'POST',
      body: form('src.bin', crypto.randomBytes(FILE)),
      token: server.admin,
    })
    expect(one.status).toBe(201)
    const answers = await Promise.all(
      // Each to its own name: copies racing for one `(COPY)` name would meet 409 besides the quota.
      Array.from({ length: 8 }, (_, i) =>
        server.api(`/api/storage/race/c${i}.bin`, { json: { from: 'race/src.bin' }, token: server.admin }),
      ),
    )
    const created = createdOrFull(answers)
    expect(await storedBytes(server, server.admin)).toBeLessThanOrEqual(QUOTA)
    expect(created).toBeGreaterThanOrEqual(1)
    expect(created).toBeLessThanOrEqual(2)
    expect(await holdsOf(server)).toEqual({})
  })

  it('10 parallel resumable creations hold at most the quota', async () => {
    await emptyFolder('race')
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tusCreate(server, server.admin, 'race', `t${i}.bin`, FILE)),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.every((s) => s === 201 || s === 413)).toBe(true)
    expect(statuses.filter((s) => s === 201).length).toBe(3)
    // Nothing stored, but a 30 kB upload no longer fits: the three hold 90,000 bytes.
    const more = await server.api('/api/storage/race', {
      method: 'POST',
      body: form('more.bin', crypto.randomBytes(FILE)),
      token: server.admin,
    })
    expect(more.status).toBe(413)
    for (const res of answers) {
      if (res.status === 201) {
        const gone = await fetch(new URL(res.headers.get('location')!, server.url), {
          method: 'DELETE',
          headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${server.admin}` },
        })
        expect(gone.status).toBe(204)
      }
    }
    // Deleting an upload lets its room go.
    expect(await holdsOf(server)).toEqual({})
  })
})

describe('resumable uploads hold the quota only so far', () => {
  it(`caps the uploads one user holds room for at ${TUS_OPEN_UPLOADS_MAX}; 429 past it`, async () => {
    await emptyFolder('open')
    const locations: string[] = []
    for (let i = 0; i < TUS_OPEN_UPLOADS_MAX; i++) {
      const res = await tusCreate(server, server.admin, 'open', `o${i}.bin`, 10)
      expect(res.status).toBe(201)
      locations.push(res.headers.get('location')!)
    }
    const over = await tusCreate(server, server.admin, 'open', 'one-more.bin', 10)
    expect(over.status).toBe(429)
    expect(((await over.json()) as { message: string }).message).toBe(
      STORAGE_TEXT.tusOpenUploads(TUS_OPEN_UPLOADS_MAX),
    )
    // The same upload asked for again is not a new one; another user has their own count.
    expect((await tusCreate(server, server.admin, 'open', 'o0.bin', 10)).status).toBe(201)
    const other = await server.userWith('uploader', ['storage:*'])
    const theirs = await tusCreate(server, other, 'open', 'theirs.bin', 10)
    expect(theirs.status).toBe(201)
    // A finished upload no longer counts.
    expect((await tusPatch(server.admin, locations.shift()!, crypto.randomBytes(10))).status).toBe(204)
    const last = await tusCreate(server, server.admin, 'open', 'one-more.bin', 10)
    expect(last.status).toBe(201)
    locations.push(last.headers.get('location')!)
    const remove = (location: string, token: string) =>
      fetch(new URL(location, server.url), {
        method: 'DELETE',
        headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` },
      })
    for (const location of locations) expect((await remove(location, server.admin)).status).toBe(204)
    expect((await remove(theirs.headers.get('location')!, other)).status).toBe(204)
    expect(await holdsOf(server)).toEqual({})
  })

  it('lets an idle upload’s room go, and its next PATCH asks for it again', async () => {
    await server.api('/api/storage/open', { method: 'DELETE', token: server.admin })
    await emptyFolder('idle')
    const created = await tusCreate(server, server.admin, 'idle', 'big.bin', 60_000)
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    const upload = (bytes: number, name: string) =>
      server.api('/api/storage/idle', {
        method: 'POST',
        body: form(name, crypto.randomBytes(bytes)),
        token: server.admin,
      })
    expect((await upload(50_000, 'mid.bin')).status).toBe(413)

    // TUS_HOLD_IDLE_MS without a PATCH, as the ledger sees it: the hold's end is in the past.
    const doc = (await server.services.store.get(QUOTA_HOLDS, 'storage'))!
    const held = doc.held as Record<string, { bytes: number; expires: number }>
    expect(Object.values(held).map((h) => h.bytes)).toEqual([60_000])
    for (const hold of Object.values(held)) hold.expires = Date.now() - 1
    await server.services.store.write(
      { op: 'put', collection: QUOTA_HOLDS, id: 'storage', body: { held }, expectedRev: doc._rev },
      { user: null },
    )
    expect((await upload(50_000, 'mid.bin')).status).toBe(201)

    // The idle upload comes back: the room is taken now, so its PATCH is 413 and names nothing.
    const refused = await tusPatch(server.admin, location, crypto.randomBytes(60_000))
    expect(refused.status).toBe(413)
    expect(((await refused.json()) as { message: string }).message).toBe(quotaMessage)
    expect(await storedBytes(server, server.admin, 'idle')).toBe(50_000)
    // Room again: the same PATCH holds it and finishes.
    expect(
      (await server.api('/api/storage/idle/mid.bin', { method: 'DELETE', token: server.admin })).status,
    ).toBe(200)
    expect((await tusPatch(server.admin, location, crypto.randomBytes(60_000))).status).toBe(204)
    expect(await storedBytes(server, server.admin, 'idle')).toBe(60_000)
    expect(await holdsOf(server)).toEqual({})
  })
})
