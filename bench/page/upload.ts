/**
 * The storage benchmark's browser side (bench/suites/storage.ts), built as one IIFE and evaluated in a
 * console page (/ui/login, the API's own origin), so the upload goes through the console's real upload
 * code: startPageUpload (src/app/storage/tus-page.ts, tus-js-client over XHR against /api/uploads),
 * with the same row shape the offline queue gives it. The baseline posts the same Blob with one plain
 * fetch to the bare Fastify route (bench/lib/bare-server.ts).
 */
import { startPageUpload } from '../../src/app/storage/tus-page'
import type { QueueRow } from '../../src/sync/files/types'

let blob: Blob | null = null

/** `mb` MiB of random bytes (one random MiB repeated: nothing on the way compresses it anyway). */
function makeBlob(mb: number): number {
  const chunk = new Uint8Array(1024 * 1024)
  for (let i = 0; i < chunk.length; i += 65536) crypto.getRandomValues(chunk.subarray(i, i + 65536))
  blob = new Blob(Array.from({ length: mb }, () => chunk))
  return blob.size
}

async function consoleUpload(opts: { token: string; folder: string; name: string }) {
  if (!blob) throw new Error('makeBlob first')
  const row: QueueRow = {
    id: crypto.randomUUID(),
    root: 'storage',
    op: {
      kind: 'upload',
      folder: opts.folder,
      name: opts.name,
      size: blob.size,
      type: 'application/octet-stream',
    },
    status: 'running',
    sent: 0,
    total: blob.size,
    created: Date.now(),
    attempts: 0,
  }
  let progressEvents = 0
  const started = performance.now()
  const running = startPageUpload(
    { fetch: fetch.bind(globalThis), base: location.origin, token: opts.token },
    row,
    blob,
    {
      onUrl: () => undefined,
      onProgress: () => {
        progressEvents++
      },
    },
  )
  const outcome = await running.done
  const ms = performance.now() - started
  if (outcome.kind !== 'done') throw new Error(`console upload: ${JSON.stringify(outcome)}`)
  return { ms, bytes: blob.size, progressEvents, entry: (outcome as { result?: unknown }).result }
}

async function plainUpload(url: string) {
  if (!blob) throw new Error('makeBlob first')
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', body: blob })
  const body = (await res.json()) as { bytes: number }
  const ms = performance.now() - started
  if (!res.ok || body.bytes !== blob.size)
    throw new Error(`plain upload: ${res.status} ${JSON.stringify(body)}`)
  return { ms, bytes: body.bytes }
}

export const benchUpload = { makeBlob, consoleUpload, plainUpload }
export type BenchUploadApi = typeof benchUpload
;(window as unknown as { benchUpload: BenchUploadApi }).benchUpload = benchUpload
