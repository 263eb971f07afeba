/**
 * The service worker's tus client (src/sync/files/tus-fetch.ts) against the real server's tus
 * endpoint: a fresh upload lands with its entry; an upload half sent earlier resumes at the server's
 * offset and sends only the rest, also when its address was never stored (the item's `key` makes the
 * creation answer the same upload); a finished upload whose last answer was lost sends nothing again;
 * a refused creation (no such folder, a name over 255 bytes) fails with the server's message.
 */
import { beforeAll, expect, test } from 'vitest'
import { TUS_PATH } from '../../src/shared/constants'
import { STORAGE_TEXT } from '../../src/shared/texts'
import type { Sender } from '../../src/sync/files/queue-core'
import { encodeMetadata, fetchTusUpload, uploadMetadata } from '../../src/sync/files/tus-fetch'
import type { QueueRow } from '../../src/sync/files/types'
import { suiteServer } from '../helpers/suite-server'

let token: string
const server = suiteServer({}, { login: false })
beforeAll(async () => {
  token = await server.login()
})

let n = 0
function row(name: string, size: number, folder = ''): QueueRow {
  return {
    id: `tus-${Date.now()}-${++n}`,
    root: 'storage',
    op: { kind: 'upload', folder, name, size, type: 'application/octet-stream' },
    status: 'running',
    sent: 0,
    total: size,
    created: Date.now(),
    attempts: 0,
  }
}

const bytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) & 255)

/** A fetch that records how many body bytes each PATCH carried. */
function countingSender(): Sender & { patched: number[] } {
  const patched: number[] = []
  return {
    patched,
    base: server.url,
    token,
    fetch: async (input, init) => {
      if (init?.method === 'PATCH') patched.push((init.body as Blob).size)
      return fetch(input, init)
    },
  }
}

const auth = () => ({ authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' })

async function create(r: QueueRow, size: number): Promise<string> {
  const res = await fetch(`${server.url}${TUS_PATH}`, {
    method: 'POST',
    headers: {
      ...auth(),
      'upload-length': String(size),
      'upload-metadata': encodeMetadata(uploadMetadata(r)),
    },
  })
  expect(res.status).toBe(201)
  return new URL(res.headers.get('location')!, server.url).href
}

async function patch(url: string, offset: number, body: Uint8Array): Promise<void> {
  const res = await fetch(url, {
    method: 'PATCH',
    headers: {
      ...auth(),
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(offset),
    },
    body: new Blob([body as BlobPart]),
  })
  expect(res.status).toBe(204)
}

async function stored(name: string): Promise<Uint8Array> {
  const res = await fetch(`${server.url}/api/storage/${encodeURIComponent(name)}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

test('a fresh upload lands and answers its entry', async () => {
  const data = bytes(100_000)
  const r = row(`fresh-${n}.bin`, data.length)
  const urls: string[] = []
  const sender = countingSender()
  const outcome = await fetchTusUpload(sender, r, new Blob([data]), { onUrl: async (u) => void urls.push(u) })
  expect(outcome).toMatchObject({
    kind: 'done',
    result: { name: (r.op as { name: string }).name, size: data.length },
  })
  expect(urls).toHaveLength(1)
  expect(sender.patched).toEqual([data.length])
  expect(await stored((r.op as { name: string }).name)).toEqual(data)
})

test('a half-sent upload resumes at the offset, with or without its stored address', async () => {
  const data = bytes(200_000)
  for (const known of [true, false]) {
    const r = row(`half-${known}-${n}.bin`, data.length)
    const url = await create(r, data.length)
    await patch(url, 0, data.subarray(0, 80_000))
    if (known) r.uploadUrl = url
    const sender = countingSender()
    const outcome = await fetchTusUpload(sender, r, new Blob([data]), { onUrl: async () => {} })
    expect(outcome.kind).toBe('done')
    expect(sender.patched, known ? 'stored address' : 'address lost, same key').toEqual([120_000])
    expect(await stored((r.op as { name: string }).name)).toEqual(data)
  }
})

test('a file larger than a chunk goes in one PATCH per chunk', async () => {
  const data = bytes(250_000)
  const r = row(`chunks-${n}.bin`, data.length)
  const sender = countingSender()
  const outcome = await fetchTusUpload(
    sender,
    r,
    new Blob([data]),
    { onUrl: async () => {} },
    undefined,
    100_000,
  )
  expect(outcome.kind).toBe('done')
  expect(sender.patched).toEqual([100_000, 100_000, 50_000])
  expect(await stored((r.op as { name: string }).name)).toEqual(data)
})

test('a finished upload whose answer was lost sends nothing again; a refused one fails', async () => {
  const data = bytes(5_000)
  const r = row(`done-${n}.bin`, data.length)
  const url = await create(r, data.length)
  await patch(url, 0, data)
  r.uploadUrl = url
  const sender = countingSender()
  expect((await fetchTusUpload(sender, r, new Blob([data]), { onUrl: async () => {} })).kind).toBe('done')
  expect(sender.patched).toEqual([])

  const lost = row('x.bin', 3, 'no-such-folder')
  const outcome = await fetchTusUpload(countingSender(), lost, new Blob(['abc']), { onUrl: async () => {} })
  expect(outcome).toMatchObject({ kind: 'failed', error: expect.any(String) })
})

test('a name over 255 bytes, queued by a console that did not check it, fails with the reason instead of waiting', async () => {
  const long = `${'n'.repeat(300)}.bin`
  const outcome = await fetchTusUpload(countingSender(), row(long, 3), new Blob(['abc']), {
    onUrl: async () => {},
  })
  expect(outcome).toEqual({ kind: 'failed', error: STORAGE_TEXT.nameTooLong(304) })
})
