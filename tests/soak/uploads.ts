/**
 * The soak's uploads (docs/contributing/reliability.md): a tab queues a small file (a few KB of bytes drawn from the
 * seed) through the console's Storage upload queue, the function the file browser calls
 * (window.__momentumFiles.enqueueUploads, src/app/storage/queue.ts). Acknowledged = the call resolved:
 * the row and the bytes are stored in IndexedDB, the queue's promise to deliver them. At the end every
 * acknowledged file is on the server once (one write in the change log) with the same bytes, and no
 * file is there that no op queued.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import type { E2EServer } from '../e2e/fixtures'
import type { FilesWindow } from '../e2e/pages/storage-queue'
import { ack } from './harness'
import type { Change, Op } from './oplog'
import { prng, type Rand } from './prng'

/** The Storage folder the soak's uploads go to (made through the API before the run). */
export const FILES_FOLDER = 'soak-files'

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex')

/** Makes the folder the uploads go into: a missing folder is a refusal the user must decide. */
export async function makeFilesFolder(server: E2EServer, token: string): Promise<void> {
  const res = await server.api('/api/storage', { token, json: { directory: FILES_FOLDER } })
  if (res.status !== 201) throw new Error(`POST /api/storage ${FILES_FOLDER}: ${res.status}`)
}

/** Queues one file of 1–6 KB; its bytes come from the writer's stream, so a seed replays them. */
export async function uploadWrite(page: Page, actor: string, rand: Rand, id: string): Promise<Op> {
  const size = rand.int(1024, 6 * 1024)
  const bytesRand = prng(rand.int(0, 2 ** 31 - 1))
  const bytes = Uint8Array.from({ length: size }, () => bytesRand.int(0, 255))
  const name = `u${id}.bin`
  const op: Op = {
    id,
    actor,
    kind: 'upload',
    collection: 'storage',
    doc: `${FILES_FOLDER}/${name}`,
    ack: 'unknown',
    sha256: sha256(bytes),
    size,
  }
  op.ack = await ack(
    page.evaluate(
      async ({ b64, name, folder }) => {
        const files = (window as unknown as FilesWindow).__momentumFiles
        if (!files) return { ok: false, error: 'no upload queue in this page' }
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
        try {
          const file = new File([bytes], name, { type: 'application/octet-stream' })
          await files.enqueueUploads('storage', [{ file, name, folder }])
          return { ok: true }
        } catch (e) {
          return { ok: false, error: String((e as Error)?.message ?? e) }
        }
      },
      { b64: Buffer.from(bytes).toString('base64'), name, folder: FILES_FOLDER },
    ),
  )
  return op
}

interface Listed {
  path: string
  name: string
  type: string
  size: number
}

/** Problems found; empty when every acknowledged upload arrived once, intact, and nothing else did. */
export async function checkUploads(server: E2EServer, token: string, ops: Op[], log: Change[]) {
  const problems: string[] = []
  const res = await server.api<Listed[]>(`/api/storage/${FILES_FOLDER}`, { token })
  if (res.status !== 200) return [`GET /api/storage/${FILES_FOLDER}: ${res.status}`]
  const listed = new Set(res.body.filter((e) => e.type === 'file').map((e) => `${FILES_FOLDER}/${e.name}`))
  const writes = new Map<string, number>()
  for (const c of log) {
    if (c.collection === 'storage' && c.op === 'upsert' && c.id.startsWith(`${FILES_FOLDER}/`))
      writes.set(c.id, (writes.get(c.id) ?? 0) + 1)
  }
  const uploads = ops.filter((o) => o.kind === 'upload')
  for (const o of uploads) {
    const n = writes.get(o.doc) ?? 0
    if (n > 1) problems.push(`upload ${o.doc} written ${n} times`)
    if (!listed.has(o.doc)) {
      if (o.ack === 'acked') problems.push(`acknowledged upload ${o.doc} missing on the server`)
      continue
    }
    // Whatever arrived (acknowledged or unknown) must be the bytes that were queued.
    const file = await fetch(`${server.url}/api/storage/${o.doc}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const bytes = new Uint8Array(await file.arrayBuffer())
    if (file.status !== 200 || bytes.length !== o.size || sha256(bytes) !== o.sha256)
      problems.push(`upload ${o.doc}: ${file.status}, ${bytes.length} bytes, not the ${o.size} queued`)
  }
  const made = new Set(uploads.filter((o) => o.ack !== 'refused').map((o) => o.doc))
  for (const path of listed) if (!made.has(path)) problems.push(`file ${path} exists but was never queued`)
  for (const path of writes.keys())
    if (!made.has(path)) problems.push(`file ${path} written but never queued`)
  return problems
}
