/**
 * POST /api/pdf with `save` ("Save to Storage", issue 13) against the real server, Chromium and disk:
 * the PDF lands in the root as a file whose text pdftotext reads back, with its entry in the store
 * (what the sync stream carries); `{root}/{path}:c` (`:u` to replace) is needed and a refusal, a bad
 * path or a full quota changes nothing; an Idempotency-Key replay saves nothing twice.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { StorageEntry } from '../../src/shared/storage'
import type { PullResponse } from '../../src/shared/sync-protocol'
import { PDF_TEXT, STORAGE_TEXT } from '../../src/shared/texts'
import { pdfText } from '../helpers/pdf-text'
import { suiteServer } from '../helpers/suite-server'

// The Web Server root gets a quota smaller than any PDF, to see a save refused by it.
const server = suiteServer({ storageQuota: { static: 500 } })
beforeAll(async () => {
  expect(
    (await server.api('/api/storage', { json: { directory: 'reports' }, token: server.admin })).status,
  ).toBe(201)
}, 60_000)

const save = (body: unknown, token = server.admin, headers: Record<string, string> = {}) =>
  server.api('/api/pdf', { json: body, token, headers })
const messageOf = (res: { body: unknown }) => (res.body as { message: string }).message
/** The files of a root on disk (the test server's data dir holds both roots), relative paths sorted. */
const storageFiles = (root = 'storage') => {
  const dir = path.join(server.dataDir, root)
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : []
}

async function download(root: string, file: string): Promise<Buffer> {
  const res = await fetch(`${server.url}/api/${root}/${file}`, {
    headers: { authorization: `Bearer ${server.admin}` },
  })
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

describe('POST /api/pdf with save', () => {
  it('stores the PDF in the root, answers 201 with its entry and records it for sync', async () => {
    const res = await save({
      html: '<h1>Quarterly report saved</h1>',
      save: { root: 'storage', path: 'reports/q1.pdf' },
    })
    expect(res.status).toBe(201)
    const entry = res.body as StorageEntry
    expect(entry).toMatchObject({
      path: 'reports/q1.pdf',
      name: 'q1.pdf',
      type: 'file',
      contentType: 'application/pdf',
    })
    const bytes = await download('storage', 'reports/q1.pdf')
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(entry.size).toBe(bytes.length)
    expect(pdfText(bytes)).toContain('Quarterly report saved')
    // The entry's document is in the change log: the sync stream carries it to other consoles.
    const pull = (await server.api('/api/sync?cursor=0&limit=2000', { token: server.admin }))
      .body as PullResponse
    const change = pull.changes.filter((c) => c.collection === 'storage' && c.id === 'reports/q1.pdf')
    expect(change).toHaveLength(1)
    expect(change[0]!.doc).toMatchObject({ parent: 'reports', name: 'q1.pdf', size: bytes.length })
  })

  it('needs {root}/{path}:c to create and :u to replace; a refusal changes nothing', async () => {
    const nobody = await server.userWith('pdf-saver-none', ['pdf:c', 'storage:r'])
    const refused = await save(
      { html: '<p>no</p>', save: { root: 'storage', path: 'reports/no.pdf' } },
      nobody,
    )
    expect(refused.status).toBe(403)
    expect(storageFiles()).not.toContain(path.join('reports', 'no.pdf'))
    expect(await server.services.store.get('storage', 'reports/no.pdf')).toBeNull()

    const creator = await server.userWith('pdf-saver-create', ['pdf:c', 'storage/reports:c'])
    const made = await save(
      { html: '<p>First version</p>', save: { root: 'storage', path: 'reports/mine.pdf' } },
      creator,
    )
    expect(made.status).toBe(201)
    const first = await download('storage', 'reports/mine.pdf')
    // Replacing needs :u, which this user lacks: the first version stays.
    const again = await save(
      { html: '<p>Second version</p>', save: { root: 'storage', path: 'reports/mine.pdf' } },
      creator,
    )
    expect(again.status).toBe(403)
    expect((await download('storage', 'reports/mine.pdf')).equals(first)).toBe(true)

    const updater = await server.userWith('pdf-saver-update', ['pdf:c', 'storage/reports:cu'])
    const replaced = await save(
      { html: '<p>Second version</p>', save: { root: 'storage', path: 'reports/mine.pdf' } },
      updater,
    )
    expect(replaced.status).toBe(201)
    expect(pdfText(await download('storage', 'reports/mine.pdf'))).toContain('Second version')
  })

  it('refuses a bad path or save object with 400, a missing folder with 404, and saves nothing', async () => {
    const before = storageFiles()
    for (const bad of ['../escape.pdf', 'reports/../x.pdf', '/abs.pdf', 'a//b.pdf', 'reports\\x.pdf', '']) {
      const res = await save({ html: '<p>x</p>', save: { root: 'storage', path: bad } })
      expect(res.status, bad).toBe(400)
      expect([STORAGE_TEXT.pathInvalid, STORAGE_TEXT.pathMissing]).toContain(messageOf(res))
    }
    for (const bad of [
      { root: 'nowhere', path: 'x.pdf' },
      { root: 'storage' },
      'reports/x.pdf',
      { root: 'storage', path: 7 },
    ]) {
      const res = await save({ html: '<p>x</p>', save: bad })
      expect(res.status).toBe(400)
      expect(messageOf(res)).toBe(PDF_TEXT.saveInvalid)
    }
    const missing = await save({ html: '<p>x</p>', save: { root: 'storage', path: 'no-such-folder/x.pdf' } })
    expect(missing.status).toBe(404)
    const onFolder = await save({ html: '<p>x</p>', save: { root: 'storage', path: 'reports' } })
    expect(onFolder.status).toBe(409)
    expect(storageFiles()).toEqual(before)
  })

  it('keeps to the root quota (413, nothing saved)', async () => {
    const res = await save({
      html: '<p>Too big for the quota</p>',
      save: { root: 'static', path: 'site.pdf' },
    })
    expect(res.status).toBe(413)
    expect(messageOf(res)).toBe(STORAGE_TEXT.quotaExceeded('500 B'))
    expect(storageFiles('static').filter((f) => f.endsWith('.pdf'))).toEqual([])
  })

  it('saves once under an Idempotency-Key: the replay answers the first entry', async () => {
    const body = { html: '<p>Once only</p>', save: { root: 'storage', path: 'reports/once.pdf' } }
    const first = await save(body, server.admin, { 'idempotency-key': 'pdf-save-once' })
    expect(first.status).toBe(201)
    const replay = await save(body, server.admin, { 'idempotency-key': 'pdf-save-once' })
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body).toEqual(first.body)
  })
})
