/**
 * Resumable uploads (tus 1.0.0 at TUS_PATH, contract C1, docs/operating/storage.md "Resumable uploads") on a real
 * server: tus-js-client in Node uploads, a small TCP proxy between them counts the bytes and cuts the
 * connection mid-way, so resuming is proved by bytes; the same key twice is one file; every refusal
 * comes at creation, before any byte; someone else's upload does not exist for another user.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { Upload } from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { API_CSP } from '../../src/server/http/security-headers'
import { tusPartials } from '../../src/server/storage/tus-partials'
import { RESUMABLE_UPLOAD_LIMIT_BYTES, TUS_EXPIRY_MS, TUS_PATH } from '../../src/shared/constants'
import type { StorageEntry } from '../../src/shared/storage'
import type { PullResponse } from '../../src/shared/sync-protocol'
import { STORAGE_TEXT } from '../../src/shared/texts'
import { startTestS3, type TestS3 } from '../helpers/s3'
import { startTestServer, type TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex')
const b64 = (text: string) => Buffer.from(text).toString('base64')
const metadataHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',')

/** A raw tus request (fetch), for what tus-js-client would hide. */
function tus(
  method: string,
  url: string,
  token: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
) {
  return fetch(new URL(url, server.url), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...headers },
    // A copy typed as fetch wants it (a plain ArrayBuffer underneath).
    body: body && new Uint8Array(body),
  })
}

function create(token: string, size: number, meta: Record<string, string>) {
  return tus('POST', TUS_PATH, token, {
    'upload-length': String(size),
    'upload-metadata': metadataHeader(meta),
  })
}

const entryOf = (res: Response): StorageEntry =>
  JSON.parse(decodeURIComponent(res.headers.get('upload-entry') ?? 'null')) as StorageEntry

/** What is in the folder of partial uploads (behind the server's back). */
const partialFiles = () => fs.readdirSync(path.join(server.dataDir, 'uploads'))

/**
 * A TCP proxy in front of the server that counts the bytes clients send through it and, when asked,
 * cuts every connection once that count passes a mark: a network that drops mid-upload.
 */
interface Proxy {
  url: string
  sent: number
  cutAfter: number | null
  close(): Promise<void>
}

async function startProxy(target: string): Promise<Proxy> {
  const { port, hostname } = new URL(target)
  const sockets = new Set<net.Socket>()
  const proxy: Proxy = { url: '', sent: 0, cutAfter: null, close: async () => undefined }
  const listener = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname)
    sockets.add(client).add(upstream)
    client.on('data', (chunk: Buffer) => {
      proxy.sent += chunk.length
      if (proxy.cutAfter !== null && proxy.sent > proxy.cutAfter) {
        proxy.cutAfter = null
        for (const s of sockets) s.destroy()
        return
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => client.write(chunk))
    for (const s of [client, upstream]) {
      s.on('error', () => undefined)
      s.on('close', () => {
        sockets.delete(s)
        client.destroy()
        upstream.destroy()
      })
    }
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`
  proxy.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy()
      listener.close(() => resolve())
    })
  return proxy
}

interface TusResult {
  ok: boolean
  upload: Upload
  entry?: StorageEntry
  error?: Error
}

/** tus-js-client in Node, no retries: the test decides when to try again. */
function runTus(
  base: string,
  token: string,
  bytes: Buffer,
  meta: Record<string, string>,
  extra: Partial<ConstructorParameters<typeof Upload>[1]> = {},
): Promise<TusResult> {
  return new Promise((resolve) => {
    const upload: Upload = new Upload(bytes, {
      endpoint: `${base}${TUS_PATH}`,
      headers: { authorization: `Bearer ${token}` },
      metadata: meta,
      retryDelays: null,
      ...extra,
      onSuccess: ({ lastResponse }) => {
        const raw = lastResponse.getHeader('Upload-Entry')
        resolve({ ok: true, upload, entry: raw ? JSON.parse(decodeURIComponent(raw)) : undefined })
      },
      onError: (error) => resolve({ ok: false, upload, error }),
    })
    upload.start()
  })
}

async function mkdir(folder: string, token = server.admin) {
  const res = await server.api('/api/storage', { json: { directory: folder }, token })
  expect([201, 409]).toContain(res.status)
}

const server = suiteServer()
beforeAll(async () => {
  await mkdir('tus')
})

describe('resumable uploads (tus)', () => {
  it('uploads in chunks; the file appears in the listing and the change feed with its size and SHA-256', async () => {
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 17)
    const result = await runTus(
      server.url,
      server.admin,
      bytes,
      {
        root: 'storage',
        folder: 'tus',
        name: 'chunks.bin',
        type: 'application/octet-stream',
        key: 'chunks-1',
      },
      { chunkSize: 1024 * 1024 },
    )
    expect(result.error).toBeUndefined()
    expect(result.entry).toMatchObject({
      path: 'tus/chunks.bin',
      name: 'chunks.bin',
      type: 'file',
      size: bytes.length,
    })

    const listing = (await server.api('/api/storage/tus', { token: server.admin })).body as StorageEntry[]
    expect(listing.find((e) => e.path === 'tus/chunks.bin')).toEqual(result.entry)
    const file = await fetch(`${server.url}/api/storage/tus/chunks.bin`, {
      headers: { authorization: `Bearer ${server.admin}` },
    })
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytes))

    const pull = (await server.api('/api/sync?cursor=0&limit=2000', { token: server.admin }))
      .body as PullResponse
    const change = pull.changes.filter((c) => c.collection === 'storage' && c.id === 'tus/chunks.bin')
    expect(change).toHaveLength(1)
    expect(change[0]!.op).toBe('upsert')
    expect(change[0]!.doc).toMatchObject({ path: 'tus/chunks.bin', parent: 'tus', size: bytes.length })
    // The partial bytes are gone once the file is named; only the small record stays.
    expect(fs.existsSync(path.join(server.dataDir, 'uploads', result.upload.url!.split('/').pop()!))).toBe(
      false,
    )
  })

  it('resumes after the connection is cut mid-way, sending only the bytes the server lacks', async () => {
    const proxy = await startProxy(server.url)
    try {
      const bytes = crypto.randomBytes(4 * 1024 * 1024)
      const meta = { root: 'storage', folder: 'tus', name: 'resumed.bin', key: 'resume-1' }
      // One PATCH for the whole file (no chunkSize): the cut lands in the middle of it.
      proxy.cutAfter = 1_500_000
      const first = await runTus(proxy.url, server.admin, bytes, meta)
      expect(first.ok).toBe(false)
      const url = first.upload.url!
      expect(url).toContain(`${TUS_PATH}/`)

      // The server kept what arrived before the cut and says so, once it has seen the cut request end
      // (on a loaded machine the HEAD can overtake the aborted PATCH's last write).
      const offset = await vi.waitFor(
        async () => {
          const head = await tus('HEAD', url.replace(proxy.url, ''), server.admin)
          expect(head.status).toBe(200)
          const value = Number(head.headers.get('upload-offset'))
          expect(value).toBeGreaterThan(0)
          return value
        },
        { timeout: 10_000, interval: 100 },
      )
      expect(offset).toBeLessThan(bytes.length)

      proxy.sent = 0
      const second = await runTus(proxy.url, server.admin, bytes, meta, { uploadUrl: url })
      expect(second.error).toBeUndefined()
      const rest = bytes.length - offset
      // The second attempt sent the rest and a few small requests' headers, not the file again.
      expect(proxy.sent).toBeGreaterThanOrEqual(rest)
      expect(proxy.sent).toBeLessThan(rest + 16 * 1024)
      expect(second.entry).toMatchObject({ path: 'tus/resumed.bin', size: bytes.length })
      const file = await fetch(`${server.url}/api/storage/tus/resumed.bin`, {
        headers: { authorization: `Bearer ${server.admin}` },
      })
      expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytes))
    } finally {
      await proxy.close()
    }
  })

  it('gives the same upload for the same key: one file, and a finished upload says so', async () => {
    const bytes = crypto.randomBytes(70_000)
    const meta = { root: 'storage', folder: 'tus', name: 'once.bin', key: 'same-key' }
    const a = await create(server.admin, bytes.length, meta)
    expect(a.status).toBe(201)
    const location = a.headers.get('location')!
    expect(location).toMatch(new RegExp(`^${TUS_PATH}/[0-9a-f]{40}$`))
    // Handed to tus raw, the answer still carries the API's security headers.
    expect(a.headers.get('content-security-policy')).toBe(API_CSP)
    expect(a.headers.get('x-content-type-options')).toBe('nosniff')
    const half = bytes.subarray(0, 30_000)
    const patch1 = await tus(
      'PATCH',
      location,
      server.admin,
      { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      half,
    )
    expect(patch1.status).toBe(204)
    expect(patch1.headers.get('upload-offset')).toBe('30000')
    expect(patch1.headers.get('upload-entry')).toBeNull()

    // Created again (a reload lost the address): the same upload, and how far it got.
    const b = await create(server.admin, bytes.length, meta)
    expect(b.status).toBe(201)
    expect(b.headers.get('location')).toBe(location)
    expect(b.headers.get('upload-offset')).toBe('30000')
    // The same key for another file is refused.
    const other = await create(server.admin, bytes.length, { ...meta, name: 'other.bin' })
    expect(other.status).toBe(400)
    expect(((await other.json()) as { message: string }).message).toBe(STORAGE_TEXT.tusKeyReused)

    const last = await tus(
      'PATCH',
      location,
      server.admin,
      { 'content-type': 'application/offset+octet-stream', 'upload-offset': '30000' },
      bytes.subarray(30_000),
    )
    expect(last.status).toBe(204)
    expect(last.headers.get('upload-offset')).toBe(String(bytes.length))
    const entry = entryOf(last)
    expect(entry).toMatchObject({
      path: 'tus/once.bin',
      size: bytes.length,
      contentType: 'application/octet-stream',
    })

    // Finished: a HEAD (a client that lost that answer) and a third creation say so, with the entry.
    const head = await tus('HEAD', location, server.admin)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe(String(bytes.length))
    expect(head.headers.get('upload-length')).toBe(String(bytes.length))
    expect(entryOf(head)).toEqual(entry)
    const c = await create(server.admin, bytes.length, meta)
    expect(c.status).toBe(201)
    expect(c.headers.get('location')).toBe(location)
    expect(c.headers.get('upload-offset')).toBe(String(bytes.length))
    // A repeated PATCH at the old offset changes nothing.
    const again = await tus(
      'PATCH',
      location,
      server.admin,
      { 'content-type': 'application/offset+octet-stream', 'upload-offset': '30000' },
      bytes.subarray(30_000),
    )
    expect(again.status).toBe(409)

    const listing = (await server.api('/api/storage/tus', { token: server.admin })).body as StorageEntry[]
    expect(listing.filter((e) => e.name.startsWith('once')).map((e) => e.name)).toEqual(['once.bin'])
    const pull = (await server.api('/api/sync?cursor=0&limit=2000', { token: server.admin }))
      .body as PullResponse
    expect(pull.changes.filter((c) => c.id === 'tus/once.bin')).toHaveLength(1)

    // tus-js-client given the finished address sends nothing and reports the entry.
    const resumed = await runTus(server.url, server.admin, bytes, meta, {
      uploadUrl: new URL(location, server.url).href,
    })
    expect(resumed.entry).toEqual(entry)
  })

  it('refuses at creation, before any byte: permissions (c, u, a blocked folder), bad metadata, traversal', async () => {
    await mkdir('tus/inbox')
    await mkdir('tus/inbox/private')
    await server.api('/api/storage/tus/inbox', {
      method: 'POST',
      body: form({ 'exists.txt': 'old' }),
      token: server.admin,
    })
    const user = await server.userWith('tus-writer', [
      'storage:r',
      'storage/tus/inbox:c',
      'storage/tus/inbox/private:n',
    ])
    const before = partialFiles().length
    const ok = { root: 'storage', folder: 'tus/inbox', name: 'new.txt' }
    const expectRefused = async (meta: Record<string, string>, status: number, length = 10) => {
      const res = await create(user, length, meta)
      expect(res.status, JSON.stringify(meta)).toBe(status)
      return ((await res.json()) as { message: string }).message
    }
    await expectRefused({ ...ok, name: 'exists.txt' }, 403) // replacing needs u
    await expectRefused({ ...ok, folder: 'tus' }, 403) // no c outside the inbox
    await expectRefused({ ...ok, folder: 'tus/inbox/private' }, 403) // blocked below
    await expectRefused({ ...ok, root: 'static' }, 403)
    await expectRefused({ ...ok, folder: 'elsewhere' }, 403) // no c there, whether it exists or not
    expect(await expectRefused({ ...ok, folder: 'tus/inbox/missing' }, 404)).toBe(STORAGE_TEXT.notFound)
    expect(await expectRefused({ ...ok, folder: 'tus/inbox/exists.txt' }, 400)).toBe(STORAGE_TEXT.notFolder)
    expect(await expectRefused({ ...ok, name: 'private' }, 403)).toMatch(/storage\/tus\/inbox\/private/)
    expect(await expectRefused({ ...ok, folder: '../etc' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, folder: 'tus/inbox/..' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, folder: '/tus/inbox' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, name: '../new.txt' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, name: 'a/b.txt' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, name: 'nul\u0000.txt' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, name: '.momentum-staging' }, 400)).toBe(STORAGE_TEXT.pathInvalid)
    expect(await expectRefused({ ...ok, root: 'data' }, 400)).toBe(STORAGE_TEXT.tusMetadata)
    expect(await expectRefused({ root: 'storage', folder: 'tus/inbox' }, 400)).toBe(STORAGE_TEXT.tusMetadata)
    const noLength = await tus('POST', TUS_PATH, user, {
      'upload-defer-length': '1',
      'upload-metadata': metadataHeader(ok),
    })
    expect(noLength.status).toBe(400)
    expect(await expectRefused(ok, 413, RESUMABLE_UPLOAD_LIMIT_BYTES + 1)).toBe(STORAGE_TEXT.uploadTooLarge)
    expect(partialFiles()).toHaveLength(before)

    // What the grants allow goes through, by tus-js-client as the console sends it.
    const result = await runTus(server.url, user, Buffer.from('hello inbox'), { ...ok, key: 'w-1' })
    expect(result.entry).toMatchObject({ path: 'tus/inbox/new.txt', size: 11 })
    const anonymous = await fetch(`${server.url}${TUS_PATH}`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '1', 'upload-metadata': metadataHeader(ok) },
    })
    expect(anonymous.status).toBe(401)
  })

  it("hides a user's upload from everyone else (404 for HEAD, PATCH and DELETE)", async () => {
    const other = await server.userWith('tus-other', ['storage:crud'])
    const res = await create(server.admin, 100, {
      root: 'storage',
      folder: 'tus',
      name: 'mine.bin',
      key: 'mine',
    })
    const location = res.headers.get('location')!
    expect((await tus('HEAD', location, other)).status).toBe(404)
    const patch = await tus(
      'PATCH',
      location,
      other,
      { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      new Uint8Array(100),
    )
    expect(patch.status).toBe(404)
    expect((await tus('DELETE', location, other)).status).toBe(404)
    // The same key from the other user is another upload, not a way into this one.
    const theirs = await create(other, 100, { root: 'storage', folder: 'tus', name: 'mine.bin', key: 'mine' })
    expect(theirs.headers.get('location')).not.toBe(location)
    const head = await tus('HEAD', location, server.admin)
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-offset')).toBe('0')
    // Its owner may drop it: its partial file goes.
    expect((await tus('DELETE', location, server.admin)).status).toBe(204)
    expect(partialFiles().some((f) => location.endsWith(f))).toBe(false)
    expect((await tus('HEAD', location, server.admin)).status).toBe(404)
  })

  it('replaces a file of the same name when the caller may update it', async () => {
    await server.api('/api/storage/tus', {
      method: 'POST',
      body: form({ 'page.txt': 'old text' }),
      token: server.admin,
    })
    const result = await runTus(server.url, server.admin, Buffer.from('new text, longer'), {
      root: 'storage',
      folder: 'tus',
      name: 'page.txt',
      key: 'replace-1',
    })
    expect(result.entry).toMatchObject({ path: 'tus/page.txt', size: 16 })
    expect((await server.api('/api/storage/tus/page.txt', { token: server.admin })).text).toBe(
      'new text, longer',
    )
  })

  it('keeps every byte when naming the finished upload is refused, and a later HEAD finishes it', async () => {
    const bytes = crypto.randomBytes(50_000)
    const meta = { root: 'storage', folder: 'tus', name: 'blocked.bin', key: 'finish-later' }
    const created = await create(server.admin, bytes.length, meta)
    const location = created.headers.get('location')!
    const id = location.split('/').pop()!
    // While the bytes travel, a folder takes the file's name: the final PATCH cannot name the file.
    await mkdir('tus/blocked.bin')
    const last = await tus(
      'PATCH',
      location,
      server.admin,
      { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      bytes,
    )
    expect(last.status).toBe(409)
    // The partial is whole (the disk store links it rather than moving it, so a refusal loses nothing).
    expect(fs.statSync(path.join(server.dataDir, 'uploads', id)).size).toBe(bytes.length)
    expect(
      (await server.api('/api/storage/tus/blocked.bin', { method: 'DELETE', token: server.admin })).status,
    ).toBe(200)
    const head = await tus('HEAD', location, server.admin)
    expect(head.status).toBe(200)
    expect(entryOf(head)).toMatchObject({ path: 'tus/blocked.bin', size: bytes.length })
    const stored = await fetch(`${server.url}/api/storage/tus/blocked.bin`, {
      headers: { authorization: `Bearer ${server.admin}` },
    })
    expect(sha256(new Uint8Array(await stored.arrayBuffer()))).toBe(sha256(bytes))
    expect(partialFiles()).not.toContain(id)
  })

  it('ends a stalled PATCH with the idle timeout and keeps the bytes that arrived', async () => {
    const quick = await startTestServer({ bodyIdleTimeoutMs: 400 })
    try {
      const token = await quick.login()
      await quick.api('/api/storage', { json: { directory: 'slow' }, token })
      const created = await fetch(`${quick.url}${TUS_PATH}`, {
        method: 'POST',
        headers: {
          'tus-resumable': '1.0.0',
          authorization: `Bearer ${token}`,
          'upload-length': '200000',
          'upload-metadata': metadataHeader({ root: 'storage', folder: 'slow', name: 's.bin' }),
        },
      })
      const location = created.headers.get('location')!
      const { port } = new URL(quick.url)
      const socket = net.connect(Number(port), '127.0.0.1')
      const answer = new Promise<string>((resolve) => {
        let text = ''
        socket.on('data', (d) => {
          text += d.toString('latin1')
        })
        socket.on('close', () => resolve(text))
        socket.on('error', () => resolve(text))
      })
      socket.write(
        `PATCH ${location} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\ntus-resumable: 1.0.0\r\n` +
          'content-type: application/offset+octet-stream\r\nupload-offset: 0\r\ncontent-length: 200000\r\n\r\n',
      )
      socket.write(Buffer.alloc(50_000, 7))
      // ...and nothing more: the server must not wait forever.
      expect(await answer).toMatch(/^HTTP\/1\.1 408/)
      let offset = 0
      for (let i = 0; i < 50 && offset === 0; i++) {
        const head = await fetch(`${quick.url}${location}`, {
          method: 'HEAD',
          headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` },
        })
        offset = Number(head.headers.get('upload-offset'))
        if (offset === 0) await new Promise((r) => setTimeout(r, 100))
      }
      expect(offset).toBe(50_000)
    } finally {
      await quick.close()
    }
  })

  it('sweeps partial uploads that received nothing for TUS_EXPIRY_MS', async () => {
    const stale = await create(server.admin, 1000, {
      root: 'storage',
      folder: 'tus',
      name: 'stale.bin',
      key: 'stale',
    })
    const fresh = await create(server.admin, 1000, {
      root: 'storage',
      folder: 'tus',
      name: 'fresh.bin',
      key: 'fresh',
    })
    const staleId = stale.headers.get('location')!.split('/').pop()!
    const freshId = fresh.headers.get('location')!.split('/').pop()!
    const past = new Date(Date.now() - TUS_EXPIRY_MS - 60_000)
    for (const f of [staleId, `${staleId}.json`])
      fs.utimesSync(path.join(server.dataDir, 'uploads', f), past, past)
    await tusPartials(server.dataDir).sweep()
    expect(partialFiles().filter((f) => f.startsWith(staleId))).toEqual([])
    expect(
      partialFiles()
        .filter((f) => f.startsWith(freshId))
        .sort(),
    ).toEqual([freshId, `${freshId}.json`])
    expect((await tus('HEAD', stale.headers.get('location')!, server.admin)).status).toBe(404)
  })
})

function form(files: Record<string, string>): FormData {
  const data = new FormData()
  for (const [name, text] of Object.entries(files)) data.append('file', new Blob([text]), name)
  return data
}

describe('over the S3 blob store', () => {
  let s3: TestS3
  let remote: TestServer
  beforeAll(async () => {
    s3 = await startTestS3()
    remote = await startTestServer({ s3: s3.config() })
  })
  afterAll(async () => {
    await remote?.close()
    await s3?.close()
  })

  it('names a finished upload in the bucket, whole, with its entry', async () => {
    const token = await remote.login()
    const bytes = crypto.randomBytes(2 * 1024 * 1024 + 5)
    const result = await runTus(
      remote.url,
      token,
      bytes,
      { root: 'static', folder: '', name: 'site.bin', key: 's3-1' },
      { chunkSize: 512 * 1024 },
    )
    expect(result.error).toBeUndefined()
    expect(result.entry).toMatchObject({ path: 'site.bin', size: bytes.length })
    const file = await fetch(`${remote.url}/api/static/site.bin`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(sha256(new Uint8Array(await file.arrayBuffer()))).toBe(sha256(bytes))
  })
})
