/**
 * Storage and Web Server files (docs/operating/storage.md): every call of SPEC §7 on a real server, Range and
 * validators, the ` (COPY)` suffix, moves, delete counts, a multipart upload of several files, the
 * change log, exactly-once replays under an Idempotency-Key and the Web Server root at `/` — each run
 * twice: over the disk blob store (the data dir) and over the S3 one (s3rver on loopback).
 */
import fs from 'node:fs'
import path from 'node:path'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { S3Config } from '../../src/server/config'
import { WEB_ROOT_CSP } from '../../src/server/http/security-headers'
import type { StorageEntry } from '../../src/server/storage/meta'
import { STAGING_NAME, type StorageRoot } from '../../src/server/storage/paths'
import { UPLOAD_LIMIT_BYTES } from '../../src/shared/constants'
import type { PullResponse } from '../../src/shared/sync-protocol'
import { STORAGE_TEXT } from '../../src/shared/texts'
import { startTestS3, type TestS3 } from '../helpers/s3'
import { startTestServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let s3: TestS3 | undefined
/** The bucket area of the S3 run; undefined on disk. */
let area: S3Config | undefined

afterAll(async () => {
  await s3?.close()
})

/** What a root keeps aside in its staging area (uploads not yet named), read behind the server's back. */
async function staged(root: StorageRoot): Promise<string[]> {
  if (area) return s3!.keys(`${area.prefix}${root}/${STAGING_NAME}/`)
  const dir =
    root === 'static'
      ? path.join(server.services.config.staticDir, STAGING_NAME)
      : path.join(server.dataDir, 'storage', STAGING_NAME)
  return fs.existsSync(dir) ? fs.readdirSync(dir) : []
}

/** Puts a file into a root's staging area directly, as an upload in progress would. */
async function plantStaged(root: StorageRoot, name: string, text: string): Promise<void> {
  if (area) {
    const Key = `${area.prefix}${root}/${STAGING_NAME}/${name}`
    await s3!.client.send(new PutObjectCommand({ Bucket: area.bucket, Key, Body: text }))
    return
  }
  const dir = path.join(server.services.config.staticDir, STAGING_NAME)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, name), text)
}

function form(files: Record<string, string>, field = 'file'): FormData {
  const data = new FormData()
  for (const [name, text] of Object.entries(files)) data.append(field, new Blob([text]), name)
  return data
}

const upload = (path: string, files: Record<string, string>, headers: Record<string, string> = {}) =>
  server.api(`/api/storage/${path}`, { method: 'POST', body: form(files), token: admin, headers })
const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.api(`/api/storage/${path}`, { method, json: body, token: admin, headers })
const names = (body: unknown) => (body as StorageEntry[]).map((e) => e.path)

for (const kind of ['disk', 's3'] as const) {
  describe(`over the ${kind} blob store`, () => {
    beforeAll(async () => {
      if (kind === 's3') {
        s3 = await startTestS3()
        area = s3.config()
      }
      server = await startTestServer(area ? { s3: area } : {})
      admin = await server.login()
    })
    afterAll(async () => {
      await server?.close()
    })

    describe('storage calls', () => {
      it('creates folders, uploads several files at once and lists them', async () => {
        expect((await json('POST', 'docs', { directory: true })).status).toBe(201)
        expect((await json('POST', 'docs', { directory: 'sub' })).status).toBe(201)
        expect((await json('POST', 'docs', { directory: true })).status).toBe(409)
        const res = await upload('docs', { 'a.txt': 'alpha', 'b.md': '# bee', 'c.json': '{"c":1}' })
        expect(res.status).toBe(201)
        expect((res.body as { files: StorageEntry[] }).files.map((f) => f.path)).toEqual([
          'docs/a.txt',
          'docs/b.md',
          'docs/c.json',
        ])
        expect(names((await server.api('/api/storage/docs', { token: admin })).body)).toEqual([
          'docs/a.txt',
          'docs/b.md',
          'docs/c.json',
          'docs/sub',
        ])
        await upload('docs/sub', { 'deep.txt': 'deep' })
        expect(names((await server.api('/api/storage?all=true', { token: admin })).body)).toContain(
          'docs/sub/deep.txt',
        )
        const meta = await server.api('/api/storage/docs?meta=true', { token: admin })
        const entry = meta.body as StorageEntry
        expect(entry).toMatchObject({ path: 'docs', name: 'docs', type: 'directory' })
        expect(entry.children?.map((c) => c.name)).toEqual(['a.txt', 'b.md', 'c.json', 'sub'])
        expect(entry.children?.[0]).toMatchObject({ size: 5, type: 'file' })
        if (area) {
          // The bytes are in the bucket (a folder is a marker object), none in the data dir.
          const keys = await s3!.keys(`${area.prefix}storage/docs/`)
          expect(keys).toContain(`${area.prefix}storage/docs/a.txt`)
          expect(keys).toContain(`${area.prefix}storage/docs/sub/`)
          expect(fs.existsSync(path.join(server.dataDir, 'storage'))).toBe(false)
        }
      })

      it('serves a file with its type, nosniff and validators; Range gives 206 and 416', async () => {
        const res = await server.api('/api/storage/docs/a.txt', { token: admin })
        expect(res.status).toBe(200)
        expect(res.text).toBe('alpha')
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
        expect(res.headers.get('x-content-type-options')).toBe('nosniff')
        const etag = res.headers.get('etag')!
        const modified = res.headers.get('last-modified')!
        expect(etag).toMatch(/^".+"$/)
        const cached = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { 'if-none-match': etag },
        })
        expect(cached.status).toBe(304)
        const since = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { 'if-modified-since': modified },
        })
        expect(since.status).toBe(304)
        const part = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { range: 'bytes=1-3' },
        })
        expect(part.status).toBe(206)
        expect(part.text).toBe('lph')
        expect(part.headers.get('content-range')).toBe('bytes 1-3/5')
        const tail = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { range: 'bytes=-2' },
        })
        expect(tail.text).toBe('ha')
        const past = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { range: 'bytes=9-' },
        })
        expect(past.status).toBe(416)
        expect(past.headers.get('content-range')).toBe('bytes */5')
        // A stale If-Range gets the whole file, not a piece of a different version.
        const stale = await server.api('/api/storage/docs/a.txt', {
          token: admin,
          headers: { range: 'bytes=1-3', 'if-range': '"old"' },
        })
        expect(stale.status).toBe(200)
        expect(stale.text).toBe('alpha')
      })

      it('copies with the SPEC suffix on a name clash, files and folders', async () => {
        const first = await json('POST', 'docs/a.txt', { from: 'docs/a.txt' })
        expect(first.status).toBe(201)
        expect((first.body as StorageEntry).path).toBe('docs/a (COPY).txt')
        const second = await json('POST', 'docs', { from: 'docs/a.txt' })
        expect((second.body as StorageEntry).path).toBe('docs/a (COPY) (COPY).txt')
        expect((await server.api('/api/storage/docs/a (COPY).txt', { token: admin })).text).toBe('alpha')
        const folder = await json('POST', '', { from: 'docs/sub' })
        expect((folder.body as StorageEntry).path).toBe('sub')
        expect((await server.api('/api/storage/sub/deep.txt', { token: admin })).text).toBe('deep')
        expect((await json('POST', 'docs/sub', { from: 'docs' })).status).toBe(400)
        expect((await json('POST', 'docs', { from: 'nothing.txt' })).status).toBe(404)
      })

      it('moves and renames; a move needs a source and a destination', async () => {
        const renamed = await json('PATCH', 'docs/a (COPY) (COPY).txt', { move: 'docs/renamed.txt' })
        expect(renamed.status).toBe(200)
        expect((renamed.body as StorageEntry).path).toBe('docs/renamed.txt')
        const into = await json('PATCH', 'docs/renamed.txt', { move: 'sub' })
        expect((into.body as StorageEntry).path).toBe('sub/renamed.txt')
        expect((await server.api('/api/storage/docs/renamed.txt', { token: admin })).status).toBe(404)
        const missing = await json('PATCH', 'sub/renamed.txt', { move: '' })
        expect(missing.status).toBe(400)
        expect((missing.body as { message: string }).message).toBe(STORAGE_TEXT.moveMissing)
        expect((await json('PATCH', '', { move: 'x' })).body).toMatchObject({
          message: STORAGE_TEXT.moveMissing,
        })
        expect((await json('PATCH', 'sub/renamed.txt', { move: 'docs/a.txt' })).status).toBe(409)
        expect((await json('PATCH', 'docs', { move: 'docs/sub' })).status).toBe(400)
        expect((await json('PATCH', 'ghost.txt', { move: 'x.txt' })).status).toBe(404)
      })

      it('keeps a description, through a move, and announces changes in the change log', async () => {
        const set = await json('PATCH', 'sub/renamed.txt', { description: 'Quarterly numbers' })
        expect((set.body as StorageEntry).description).toBe('Quarterly numbers')
        await json('PATCH', 'sub/renamed.txt', { move: 'docs/report.txt' })
        const meta = await server.api('/api/storage/docs/report.txt?meta=true', { token: admin })
        expect(meta.body).toMatchObject({
          path: 'docs/report.txt',
          description: 'Quarterly numbers',
          size: 5,
        })
        const listing = (await server.api('/api/storage/docs', { token: admin })).body as StorageEntry[]
        expect(listing.find((e) => e.name === 'report.txt')?.description).toBe('Quarterly numbers')
        expect((await json('PATCH', 'docs/report.txt', { description: 7 })).status).toBe(400)
        const pull = (await server.api('/api/sync?cursor=0&limit=2000', { token: admin }))
          .body as PullResponse
        const storage = pull.changes.filter((c) => c.collection === 'storage')
        const last = new Map(storage.map((c) => [c.id, c.op]))
        expect(last.get('docs/report.txt')).toBe('upsert')
        expect(last.get('sub/renamed.txt')).toBe('delete')
      })

      it('deletes a file or a folder and says how many entries went', async () => {
        expect((await json('DELETE', 'docs/c.json', undefined)).body).toEqual({ ok: true, deleted: 1 })
        // sub, sub/deep.txt
        expect((await json('DELETE', 'sub', undefined)).body).toEqual({ ok: true, deleted: 2 })
        expect((await json('DELETE', 'sub', undefined)).status).toBe(404)
        expect((await json('DELETE', '', undefined)).status).toBe(400)
      })

      it('refuses bad input with a clear 4xx', async () => {
        expect((await json('POST', 'docs', { nothing: true })).body).toMatchObject({
          message: STORAGE_TEXT.postBody,
        })
        expect((await json('PATCH', 'docs', {})).body).toMatchObject({ message: STORAGE_TEXT.patchBody })
        expect((await upload('docs/a.txt', { 'x.txt': 'x' })).body).toMatchObject({
          message: STORAGE_TEXT.notFolder,
        })
        expect((await upload('nowhere', { 'x.txt': 'x' })).status).toBe(404)
        const wrongField = await server.api('/api/storage/docs', {
          method: 'POST',
          body: form({ 'x.txt': 'x' }, 'upload'),
          token: admin,
        })
        expect(wrongField.body).toMatchObject({ message: STORAGE_TEXT.uploadMissing })
        expect((await server.api('/api/storage/nothing', { token: admin })).status).toBe(404)
      })

      it('refuses an over-size upload with 413 and keeps nothing of it', async () => {
        const data = new FormData()
        data.append('file', new Blob(['small']), 'small.txt')
        data.append('file', new Blob([new Uint8Array(UPLOAD_LIMIT_BYTES + 1)]), 'big.bin')
        const res = await server.api('/api/storage/docs', { method: 'POST', body: data, token: admin })
        expect(res.status).toBe(413)
        expect((await server.api('/api/storage/docs/small.txt', { token: admin })).status).toBe(404)
        expect((await server.api('/api/storage/docs/big.bin', { token: admin })).status).toBe(404)
        expect(await staged('storage')).toEqual([])
      })

      it('sends active types (HTML, SVG) as attachments and others inline', async () => {
        const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
        await upload('docs', { 'x.svg': svg, 'page.html': '<script>1</script>' })
        for (const name of ['x.svg', 'page.html']) {
          const res = await server.api(`/api/storage/docs/${name}`, { token: admin })
          expect(res.headers.get('content-disposition')).toMatch(/^attachment;/)
          expect(res.headers.get('content-security-policy')).toContain('sandbox')
        }
        const text = await server.api('/api/storage/docs/b.md', { token: admin })
        expect(text.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''b.md")
      })
    })

    describe('Idempotency-Key', () => {
      it('replays an upload, copy, move and delete without doing them twice', async () => {
        const key = { 'idempotency-key': 'up-1' }
        const first = await upload('docs', { 'once.txt': 'v1' }, key)
        const again = await upload('docs', { 'once.txt': 'v1' }, key)
        expect(again.headers.get('idempotent-replayed')).toBe('true')
        expect(again.body).toEqual(first.body)
        expect((await upload('docs', { 'once.txt': 'v2' }, key)).status).toBe(400)

        const copy = { 'idempotency-key': 'copy-1' }
        await json('POST', 'docs', { from: 'docs/once.txt' }, copy)
        await json('POST', 'docs', { from: 'docs/once.txt' }, copy)
        const listed = names((await server.api('/api/storage/docs', { token: admin })).body)
        expect(listed.filter((p) => p.startsWith('docs/once'))).toEqual([
          'docs/once (COPY).txt',
          'docs/once.txt',
        ])

        const move = { 'idempotency-key': 'move-1' }
        expect((await json('PATCH', 'docs/once (COPY).txt', { move: 'docs/moved.txt' }, move)).status).toBe(
          200,
        )
        const moveAgain = await json('PATCH', 'docs/once (COPY).txt', { move: 'docs/moved.txt' }, move)
        expect(moveAgain.status).toBe(200)
        expect(moveAgain.headers.get('idempotent-replayed')).toBe('true')

        const del = { 'idempotency-key': 'del-1' }
        expect((await json('DELETE', 'docs/moved.txt', undefined, del)).body).toEqual({
          ok: true,
          deleted: 1,
        })
        await upload('docs', { 'moved.txt': 'new' })
        const delAgain = await json('DELETE', 'docs/moved.txt', undefined, del)
        expect(delAgain.body).toEqual({ ok: true, deleted: 1 })
        // The replay deleted nothing: the file uploaded since is still there.
        expect((await server.api('/api/storage/docs/moved.txt', { token: admin })).text).toBe('new')
      })
    })

    describe('the Web Server root', () => {
      it('serves an uploaded page at / sandboxed, and as an attachment through the API', async () => {
        await server.api('/api/static', { method: 'POST', json: { directory: 'site' }, token: admin })
        const page = '<script>document.title = localStorage.getItem("x")</script>'
        const res = await server.api('/api/static/site', {
          method: 'POST',
          body: form({ 'index.html': page }),
          token: admin,
        })
        expect(res.status).toBe(201)
        const served = await fetch(`${server.url}/site/index.html`)
        expect(await served.text()).toBe(page)
        expect(served.headers.get('content-security-policy')).toBe(WEB_ROOT_CSP)
        const viaApi = await server.api('/api/static/site/index.html', { token: admin })
        expect(viaApi.headers.get('content-disposition')).toMatch(/^attachment;/)
        expect(viaApi.headers.get('content-security-policy')).toContain('sandbox')
        // Uploads waiting in the staging folder are never served as part of the site.
        // A folder answers its index.html; one Range works at / too; a missing file is the usual 404.
        for (const url of ['/site/', '/site']) expect(await (await fetch(server.url + url)).text()).toBe(page)
        const part = await fetch(`${server.url}/site/index.html`, { headers: { range: 'bytes=0-7' } })
        expect(part.status).toBe(206)
        expect(await part.text()).toBe('<script>')
        expect((await fetch(`${server.url}/site/none.html`)).status).toBe(404)
        await plantStaged('static', 'waiting', 'half')
        expect((await fetch(`${server.url}/${STAGING_NAME}/waiting`)).status).toBe(404)
        const listed = await server.api('/api/static', { token: admin })
        expect(names(listed.body)).toEqual(['site'])
      })
    })
  })
}
