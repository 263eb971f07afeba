/**
 * `window.__momentumFiles`: the storage queue for scripting the console from DevTools and for
 * end-to-end tests that need files a file picker cannot hand over well (a 50 MB upload made in the
 * page). In production builds too, for the reason console-handle.ts gives: it grants nothing a script
 * in the page could not already do, and every request still passes the server's checks.
 */
import type { StorageRoot } from '../../shared/storage'
import type { StorageOp, UploadInput } from '../../sync/files/types'
import { currentFilesDb } from './files-session'

export interface FilesHandle {
  enqueueUploads(root: StorageRoot, items: UploadInput[]): Promise<unknown>
  runStorageOp(op: StorageOp): Promise<unknown>
  cancelItem(id: string): Promise<void>
  retryItem(id: string): Promise<void>
  /** The files database's name for the logged-in user, or null. */
  database(): string | null
}

declare global {
  interface Window {
    __momentumFiles?: FilesHandle
  }
}

export function installFilesHandle(api: Omit<FilesHandle, 'database'>): void {
  if (typeof window === 'undefined') return
  window.__momentumFiles = { ...api, database: () => currentFilesDb()?.name ?? null }
}
