/**
 * A download with real progress: fetch, then the body read chunk by chunk through its ReadableStream
 * reader, so the page can show bytes received against Content-Length (XHR's progress event would do
 * too, but a reader also lets the page cancel cleanly and never holds a second copy as text).
 * The chunks become one Blob, saved by saveBlob under the file's own name.
 */
import { bodyMessage } from '../../../shared/body-message'
import { ApiError, decodeBody } from '../../api/client'

export type Progress = (loaded: number, total: number) => void

/** The bytes at `url` as a Blob; non-2xx rejects with the client's ApiError (status + server message). */
export async function fetchWithProgress(
  url: string,
  onProgress: Progress,
  options: { expectedSize?: number; signal?: AbortSignal } = {},
): Promise<Blob> {
  const res = await fetch(url, { signal: options.signal, credentials: 'omit' })
  if (!res.ok) {
    const body = await decodeBody(res)
    throw new ApiError(res.status, body, bodyMessage(res.status, body, res.statusText))
  }
  const header = Number(res.headers.get('content-length'))
  const total = Number.isFinite(header) && header > 0 ? header : (options.expectedSize ?? 0)
  const type = res.headers.get('content-type') ?? ''
  if (!res.body) {
    const blob = await res.blob()
    onProgress(blob.size, blob.size)
    return blob
  }
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let loaded = 0
  onProgress(0, total)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loaded += value.byteLength
    onProgress(loaded, Math.max(total, loaded))
  }
  return new Blob(chunks as BlobPart[], { type })
}

/** Offers a Blob as a download under exactly `name` (a shared file keeps its name; nothing is stamped). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.hidden = true
  document.body.append(a)
  a.click()
  a.remove()
  // The browser has taken the file by now; revoking later keeps a slow one from losing it.
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}
