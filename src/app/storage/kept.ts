/**
 * Files kept offline ("keep offline"): their bytes in the files database, so a kept file opens with
 * the network off. fileBlob() is how the file browser reads any file's bytes: the kept copy when there
 * is one, else a download with the session's token (and progress when the server sends a length).
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { bodyMessage } from '../../shared/body-message'
import type { StorageRoot } from '../../shared/storage'
import { STORAGE_QUEUE_TEXT } from '../../shared/texts'
import { isQuotaError } from '../../sync/files/disk-full'
import { storageUrl } from '../../sync/files/queue-core'
import { requireFilesDb, senderNow, useFilesDb } from './files-session'

async function download(
  root: StorageRoot,
  path: string,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Blob> {
  const { fetch, base, token } = senderNow()
  let res: Response
  try {
    res = await fetch(storageUrl(base, root, path), {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      credentials: 'include',
    })
  } catch (e) {
    if (!navigator.onLine) throw new Error(STORAGE_QUEUE_TEXT.notKept)
    throw e
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '')
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // Plain text.
    }
    throw new Error(bodyMessage(res.status, body, res.statusText))
  }
  const type = res.headers.get('content-type') ?? ''
  const total = Number(res.headers.get('content-length') ?? '0')
  if (!onProgress || !res.body) return res.blob()
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let loaded = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    loaded += value.byteLength
    onProgress(loaded, total || loaded)
  }
  return new Blob(parts as BlobPart[], { type })
}

export async function keepOffline(root: StorageRoot, path: string): Promise<void> {
  const blob = await download(root, path)
  try {
    await requireFilesDb().kept.put({ root, path, blob, size: blob.size, type: blob.type, kept: Date.now() })
  } catch (e) {
    if (isQuotaError(e)) throw new Error(STORAGE_QUEUE_TEXT.diskFull)
    throw e
  }
}

export async function dropOffline(root: StorageRoot, path: string): Promise<void> {
  await requireFilesDb().kept.delete([root, path])
}

/** The paths of this root kept offline, live. */
export function useKeptOffline(root: StorageRoot): Set<string> {
  const db = useFilesDb()
  const key = useLiveQuery(
    async () => {
      if (!db) return ''
      const keys = (await db.kept.where('root').equals(root).primaryKeys()) as unknown as [string, string][]
      return keys.map(([, path]) => path).join('\n')
    },
    [db, root],
    '',
  )
  // One Set per distinct list, so a screen can use it as a dependency.
  return useMemo(() => new Set(key ? key.split('\n') : []), [key])
}

/** The file's bytes: the kept copy when there is one, else a fetch with the session's token. */
export async function fileBlob(
  root: StorageRoot,
  path: string,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Blob> {
  const kept = await requireFilesDb().kept.get([root, path])
  if (kept) {
    onProgress?.(kept.size, kept.size)
    return kept.blob
  }
  return download(root, path, onProgress)
}
