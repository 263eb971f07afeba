/**
 * The name length rule (issue 36 #2): a name over STORAGE_NAME_MAX_BYTES UTF-8 bytes is a 400 with the
 * shared message on every storage route — multipart and tus uploads, new folders, moves, copies (also
 * when the ` (COPY)` suffix takes a name past it), reads, deletes and share links — never the
 * filesystem's ENAMETOOLONG as a 500, which every queue retries for ever. Bytes, not characters: 128
 * accented letters are refused, 255 bytes pass. The disk store's own fence is checked below paths.ts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diskBlobStore } from '../../src/server/storage/disk-store'
import { STORAGE_NAME_MAX_BYTES, TUS_PATH } from '../../src/shared/constants'
import { nameLengthProblem } from '../../src/shared/storage'
import { STORAGE_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()
const long = 'n'.repeat(300)
const tooLongMessage = STORAGE_TEXT.nameTooLong(300)

const api = (method: string, url: string, json?: unknown) =>
  server.api(url, { method, ...(json === undefined ? {} : { json }), token: server.admin })

function form(name: string): FormData {
  const data = new FormData()
  data.append('file', new Blob(['x']), name)
  return data
}

const b64 = (text: string) => Buffer.from(text).toString('base64')

beforeAll(async () => {
  expect((await api('POST', '/api/storage', { directory: 'names' })).status).toBe(201)
  const up = await server.api('/api/storage/names', {
    method: 'POST',
    body: form('ok.txt'),
    token: server.admin,
  })
  expect(up.status).toBe(201)
})

describe('names over 255 bytes', () => {
  it('are refused with 400 and the shared message on every storage route', async () => {
    const answers: Record<string, { status: number; body: unknown }> = {
      upload: await server.api('/api/storage/names', {
        method: 'POST',
        body: form(long),
        token: server.admin,
      }),
      mkdir: await api('POST', '/api/storage/names', { directory: long }),
      mkdirAtPath: await api('POST', `/api/storage/names/${long}`, { directory: true }),
      move: await api('PATCH', '/api/storage/names/ok.txt', { move: `names/${long}` }),
      copyFrom: await api('POST', '/api/storage/names', { from: `names/${long}` }),
      copyTo: await api('POST', `/api/storage/names/${long}`, { from: 'names/ok.txt' }),
      read: await api('GET', `/api/storage/names/${long}`),
      meta: await api('GET', `/api/storage/names/${long}?meta=true`),
      delete: await api('DELETE', `/api/storage/names/${long}`),
      describe: await api('PATCH', `/api/storage/names/${long}`, { description: 'x' }),
      staticMkdir: await api('POST', '/api/static', { directory: long }),
      share: await api('POST', '/api/share', { root: 'storage', path: `names/${long}` }),
    }
    for (const [route, res] of Object.entries(answers)) {
      expect(res.status, route).toBe(400)
      expect(res.body, route).toMatchObject({ message: tooLongMessage })
    }
  })

  it('are refused at tus creation, before any byte', async () => {
    const res = await fetch(new URL(TUS_PATH, server.url), {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${server.admin}`,
        'upload-length': '10',
        'upload-metadata': `root ${b64('storage')},folder ${b64('names')},name ${b64(long)}`,
      },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toBe(tooLongMessage)
  })

  it('count UTF-8 bytes, not characters: 128 accented letters are refused, 255 bytes pass', async () => {
    const accented = 'é'.repeat(128) // 128 characters, 256 bytes
    const refused = await api('POST', '/api/storage/names', { directory: accented })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ message: STORAGE_TEXT.nameTooLong(256) })
    const fits = `${'é'.repeat(127)}a` // 255 bytes
    expect(nameLengthProblem(fits)).toBeNull()
    expect((await api('POST', '/api/storage/names', { directory: fits })).status).toBe(201)
    const upload = await server.api('/api/storage/names', {
      method: 'POST',
      body: form('f'.repeat(STORAGE_NAME_MAX_BYTES)),
      token: server.admin,
    })
    expect(upload.status).toBe(201)
  })

  it('a copy whose ` (COPY)` suffix would pass the limit is a 400, and nothing is copied', async () => {
    const name = `${'c'.repeat(250)}.txt` // 254 bytes; with " (COPY)" 261
    const up = await server.api('/api/storage/names', {
      method: 'POST',
      body: form(name),
      token: server.admin,
    })
    expect(up.status).toBe(201)
    const copy = await api('POST', '/api/storage/names', { from: `names/${name}` })
    expect(copy.status).toBe(400)
    expect(copy.body).toMatchObject({ message: STORAGE_TEXT.nameTooLong(261) })
    const list = await api('GET', '/api/storage/names')
    expect((list.body as { name: string }[]).filter((e) => e.name.startsWith('ccc'))).toHaveLength(1)
  })
})

describe('the disk store, below the path parser', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-names-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("turns the filesystem's ENAMETOOLONG into a 400, never a raw error", async () => {
    const store = diskBlobStore(dir)
    for (const attempt of [() => store.mkdir(long), () => store.stat(long), () => store.remove(long)]) {
      await expect(attempt()).rejects.toMatchObject({ status: 400, message: STORAGE_TEXT.nameRefused })
    }
  })
})
