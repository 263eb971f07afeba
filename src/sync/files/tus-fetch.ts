/**
 * A minimal tus 1.0.0 client on fetch, for the service worker (which has no XMLHttpRequest, so no
 * tus-js-client): create once (the item's id as metadata `key` makes a repeated creation answer the
 * same upload), HEAD for the server's offset, PATCH the rest in TUS_CHUNK_BYTES pieces. `sent` moves
 * once per chunk (fetch has no upload progress events), which a console tab opened meanwhile shows.
 */

import { bodyMessage } from '../../shared/body-message'
import { TUS_CHUNK_BYTES, TUS_PATH } from '../../shared/constants'
import { type Outcome, outcomeOfStatus, type Sender } from './queue-core'
import type { QueueRow, UploadOp } from './types'

const TUS_VERSION = '1.0.0'

function base64(value: string): string {
  let bin = ''
  for (const byte of new TextEncoder().encode(value)) bin += String.fromCharCode(byte)
  return btoa(bin)
}

/** The Upload-Metadata of an item (contract C1): root, folder, name, type, key. */
export function uploadMetadata(row: QueueRow): Record<string, string> {
  const op = row.op as UploadOp
  return {
    root: row.root,
    folder: op.folder,
    name: op.name,
    type: op.type || 'application/octet-stream',
    key: row.id,
  }
}

export function encodeMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k} ${base64(v)}`)
    .join(',')
}

/** The entry the final PATCH answer carries (`Upload-Entry`), when it carries one. */
export function entryOf(res: { headers: { get(name: string): string | null } }): unknown {
  const raw = res.headers.get('upload-entry')
  if (!raw) return undefined
  try {
    return JSON.parse(decodeURIComponent(raw))
  } catch {
    return undefined
  }
}

async function failure(res: Response): Promise<Outcome> {
  const text = await res.text().catch(() => '')
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    // Plain text answer.
  }
  return outcomeOfStatus(res.status, bodyMessage(res.status, body, res.statusText))
}

export interface FetchUploadHooks {
  /** The upload's address, to be stored before any byte is sent. */
  onUrl(url: string): Promise<void>
  onOffset?(offset: number): Promise<void> | void
}

export async function fetchTusUpload(
  sender: Sender,
  row: QueueRow,
  blob: Blob,
  hooks: FetchUploadHooks,
  signal?: AbortSignal,
  chunk = TUS_CHUNK_BYTES,
): Promise<Outcome> {
  const auth: Record<string, string> = sender.token ? { authorization: `Bearer ${sender.token}` } : {}
  const common = { 'tus-resumable': TUS_VERSION, ...auth }
  try {
    let url = row.uploadUrl
    let offset = -1
    if (url) {
      const head = await sender.fetch(url, { method: 'HEAD', headers: common, signal })
      if (head.ok) offset = Number(head.headers.get('upload-offset') ?? '0')
      else if (head.status !== 404 && head.status !== 410) return failure(head)
      else url = undefined
    }
    if (!url) {
      const created = await sender.fetch(`${sender.base}${TUS_PATH}`, {
        method: 'POST',
        headers: {
          ...common,
          'upload-length': String(blob.size),
          'upload-metadata': encodeMetadata(uploadMetadata(row)),
        },
        signal,
      })
      if (!created.ok) return failure(created)
      const location = created.headers.get('location')
      if (!location) return { kind: 'wait', error: 'The server did not say where to send the file' }
      url = new URL(location, `${sender.base}${TUS_PATH}`).href
      await hooks.onUrl(url)
      if (blob.size === 0) return { kind: 'done', result: entryOf(created) }
      // The same key may answer an upload that already has bytes: ask where it stands.
      const head = await sender.fetch(url, { method: 'HEAD', headers: common, signal })
      if (!head.ok) return failure(head)
      offset = Number(head.headers.get('upload-offset') ?? '0')
    }
    await hooks.onOffset?.(offset)
    // Already complete (the last answer was lost): nothing is sent again.
    if (offset >= blob.size) return { kind: 'done', result: undefined }
    // One PATCH per TUS_CHUNK_BYTES, as the page does: each request stays short.
    for (;;) {
      const patch = await sender.fetch(url, {
        method: 'PATCH',
        headers: {
          ...common,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        body: blob.slice(offset, offset + chunk),
        signal,
      })
      if (!patch.ok) return failure(patch)
      const end = Number(patch.headers.get('upload-offset') ?? '0')
      await hooks.onOffset?.(end)
      if (end >= blob.size) return { kind: 'done', result: entryOf(patch) }
      if (end <= offset) return { kind: 'wait', error: 'The upload stopped before the end' }
      offset = end
    }
  } catch (e) {
    return { kind: 'wait', error: e instanceof Error ? e.message : String(e) }
  }
}
