/**
 * Room for files (docs/operating/storage.md "Quota"): a root's byte quota refuses multipart uploads, copies and
 * resumable uploads past it with 413 and changes nothing, counting bytes promised to unfinished
 * resumable uploads; a disk that fills while an upload is staged answers 507 and keeps nothing half
 * written (a 1 MiB tmpfs stands in for the full disk, where the test may mount one).
 */
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configFromEnv } from '../../src/server/config'
import { STAGING_NAME } from '../../src/server/storage/paths'
import { TUS_PATH } from '../../src/shared/constants'
import type { StorageEntry } from '../../src/shared/storage'
import { STORAGE_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const QUOTA = 100_000

function form(files: Record<string, Uint8Array>): FormData {
  const data = new FormData()
  for (const [name, bytes] of Object.entries(files))
    data.append('file', new Blob([new Uint8Array(bytes)]), name)
  return data
}
const upload = (root: string, folder: string, files: Record<string, Uint8Array>) =>
  server.api(`/api/${root}/${folder}`, { method: 'POST', body: form(files), token: server.admin })
const listing = async (folder: string) =>
  ((await server.api(`/api/storage/${folder}?all=true`, { token: server.admin })).body as StorageEntry[])
    .map((e) => `${e.path}:${e.size}`)
    .sort()
const b64 = (text: string) => Buffer.from(text).toString('base64')

function tus(method: string, url: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return fetch(new URL(url, server.url), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${server.admin}`, ...headers },
    // A copy typed as fetch wants it (a plain ArrayBuffer underneath).
    body: body && new Uint8Array(body),
  })
}
const createTus = (root: string, name: string, size: number) =>
  tus('POST', TUS_PATH, {
    'upload-length': String(size),
    'upload-metadata': `root ${b64(root)},folder ${b64('')},name ${b64(name)},key ${b64(`${root}/${name}`)}`,
  })
const patchTus = (location: string, offset: number, bytes: Uint8Array) =>
  tus(
    'PATCH',
    location,
    { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
    bytes,
  )

const quotaMessage = STORAGE_TEXT.quotaExceeded('97.7 KB')
const messageOf = (res: { body: unknown }) => (res.body as { message: string }).message

const server = suiteServer({ storageQuota: { storage: QUOTA } })

describe('quota', () => {
  it('is read from MOMENTUM_STORAGE_QUOTA_BYTES and MOMENTUM_STATIC_QUOTA_BYTES', () => {
    expect(configFromEnv({ MOMENTUM_STORAGE_QUOTA_BYTES: '5000' }).storageQuota).toEqual({
      storage: 5000,
      static: undefined,
    })
    expect(configFromEnv({ MOMENTUM_STATIC_QUOTA_BYTES: '7' }).storageQuota?.static).toBe(7)
    expect(configFromEnv({ MOMENTUM_STORAGE_QUOTA_BYTES: 'lots' }).storageQuota?.storage).toBeUndefined()
  })

  it('refuses a multipart upload past the quota with 413 and keeps nothing; a replacement counts the difference', async () => {
    expect((await upload('storage', '', { 'a.bin': crypto.randomBytes(60_000) })).status).toBe(201)
    const over = await upload('storage', '', {
      'b.bin': crypto.randomBytes(30_000),
      'c.bin': crypto.randomBytes(20_000),
    })
    expect(over.status).toBe(413)
    expect(messageOf(over)).toBe(quotaMessage)
    expect(await listing('')).toEqual(['a.bin:60000'])
    expect(fs.readdirSync(path.join(server.dataDir, 'storage', STAGING_NAME))).toEqual([])
    // Replacing a.bin frees its 60,000 bytes: 90,000 in all fits.
    expect((await upload('storage', '', { 'a.bin': crypto.randomBytes(90_000) })).status).toBe(201)
    expect(await listing('')).toEqual(['a.bin:90000'])
  })

  it('refuses a copy past the quota, and only the root with a quota', async () => {
    const copy = await server.api('/api/storage', { json: { from: 'a.bin' }, token: server.admin })
    expect(copy.status).toBe(413)
    expect(messageOf(copy)).toBe(quotaMessage)
    expect(await listing('')).toEqual(['a.bin:90000'])
    // The Web Server root has no quota here.
    expect((await upload('static', '', { 'big.bin': crypto.randomBytes(150_000) })).status).toBe(201)
  })

  it('refuses a resumable upload past the quota at creation, and counts unfinished ones', async () => {
    const tooBig = await createTus('storage', 'tus.bin', 20_000)
    expect(tooBig.status).toBe(413)
    expect(((await tooBig.json()) as { message: string }).message).toBe(quotaMessage)

    const fits = await createTus('storage', 'small.bin', 8_000)
    expect(fits.status).toBe(201)
    // 90,000 stored + 8,000 promised: a 5,000-byte multipart upload no longer fits, nor a second tus one.
    expect((await upload('storage', '', { 'd.bin': crypto.randomBytes(5_000) })).status).toBe(413)
    expect((await createTus('storage', 'more.bin', 5_000)).status).toBe(413)
    const done = await patchTus(fits.headers.get('location')!, 0, crypto.randomBytes(8_000))
    expect(done.status).toBe(204)
    expect(await listing('')).toEqual(['a.bin:90000', 'small.bin:8000'])
  })
})

/** Mounts a 1 MiB tmpfs on a new folder; null when this process may not (not root, not Linux). */
function mountSmallDisk(): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    fs.rmSync(dir, { recursive: true, force: true })
    return null
  }
}

function unmount(dir: string): void {
  execFileSync('umount', [dir])
  fs.rmSync(dir, { recursive: true, force: true })
}

/** Whether a small disk can be had here, found out once (and given back at once). */
const canMount = (() => {
  const probe = mountSmallDisk()
  if (probe) unmount(probe)
  return probe !== null
})()

describe('a full disk', () => {
  let disk: string
  beforeAll(() => {
    if (canMount) disk = mountSmallDisk()!
  })
  afterAll(() => {
    if (disk) unmount(disk)
  })

  it.skipIf(!canMount)(
    'answers 507 while staging, keeps nothing half written, and a tus upload finishes once there is room',
    async () => {
      // The Web Server root stages its uploads on the small disk.
      const staging = path.join(server.services.config.staticDir, STAGING_NAME)
      fs.rmSync(staging, { recursive: true, force: true })
      fs.symlinkSync(disk, staging)

      const multipart = await upload('static', '', { 'huge.bin': crypto.randomBytes(2 * 1024 * 1024) })
      expect(multipart.status).toBe(507)
      expect(messageOf(multipart)).toBe(STORAGE_TEXT.diskFull)
      expect(fs.readdirSync(disk)).toEqual([])
      expect(fs.existsSync(path.join(server.services.config.staticDir, 'huge.bin'))).toBe(false)

      // A resumable upload gets all its bytes, but naming it needs room in the root: 507, nothing named.
      const bytes = crypto.randomBytes(2 * 1024 * 1024)
      const created = await createTus('static', 'later.bin', bytes.length)
      const location = created.headers.get('location')!
      const last = await patchTus(location, 0, bytes)
      expect(last.status).toBe(507)
      expect(JSON.parse(await last.text()).message).toBe(STORAGE_TEXT.diskFull)
      expect(fs.readdirSync(disk)).toEqual([])
      expect(fs.existsSync(path.join(server.services.config.staticDir, 'later.bin'))).toBe(false)

      // Room again: the next HEAD finishes it from the bytes kept, without sending them again.
      fs.unlinkSync(staging)
      const head = await tus('HEAD', location)
      expect(head.status).toBe(200)
      expect(head.headers.get('upload-offset')).toBe(String(bytes.length))
      expect(JSON.parse(decodeURIComponent(head.headers.get('upload-entry')!))).toMatchObject({
        path: 'later.bin',
        size: bytes.length,
      })
      const file = fs.readFileSync(path.join(server.services.config.staticDir, 'later.bin'))
      expect(file.equals(bytes)).toBe(true)
    },
  )

  it.skipIf(!canMount)(
    'answers 507 when the partial uploads fill the disk, keeping the bytes that fit',
    async () => {
      const uploads = path.join(server.dataDir, 'uploads')
      fs.renameSync(uploads, `${uploads}.real`)
      fs.symlinkSync(disk, uploads)
      try {
        const bytes = crypto.randomBytes(2 * 1024 * 1024)
        const created = await createTus('static', 'too-big-for-disk.bin', bytes.length)
        expect(created.status).toBe(201)
        const location = created.headers.get('location')!
        const patch = await patchTus(location, 0, bytes)
        expect(patch.status).toBe(507)
        expect(JSON.parse(await patch.text()).message).toBe(STORAGE_TEXT.diskFull)
        const head = await tus('HEAD', location)
        expect(head.status).toBe(200)
        const offset = Number(head.headers.get('upload-offset'))
        expect(offset).toBeGreaterThan(0)
        expect(offset).toBeLessThan(bytes.length)
        expect(fs.existsSync(path.join(server.services.config.staticDir, 'too-big-for-disk.bin'))).toBe(false)
      } finally {
        fs.unlinkSync(uploads)
        fs.renameSync(`${uploads}.real`, uploads)
      }
    },
  )
})
