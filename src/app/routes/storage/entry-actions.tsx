/**
 * What can be done with one entry of the file browser: download, copy a share link, keep offline
 * (each needing the network where it must), and the row menu and preview buttons that offer them
 * with the rename, move, copy, describe and delete of actions.ts, each only where the session may.
 */
import type { ReactNode } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { STORAGE_BROWSER_TEXT } from '../../../shared/texts'
import { downloadBlob } from '../../components/format'
import { toast } from '../../feedback/toast-store'
import type { Entry } from '../../storage/entries'
import { dropOffline, fileBlob, keepOffline } from '../../storage/queue'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import * as act from './actions'
import type { BrowserDialog } from './BrowserDialogs'
import type { MenuItem } from './EntryList'

export function useEntryActions({
  root,
  kept,
  may,
  mayCreateAnywhere,
  openDialog,
}: {
  root: StorageRoot
  /** Paths kept offline on this device. */
  kept: ReadonlySet<string>
  may: (letter: 'r' | 'c' | 'u' | 'd', path: string) => boolean
  mayCreateAnywhere: boolean
  openDialog: (dialog: BrowserDialog) => void
}) {
  // The toolbar's state, not navigator.onLine (true with the server cut off behind a working network).
  const reachable = useServerReachable()
  const offlineAndNotKept = (e: Entry) => !kept.has(e.path) && !reachable
  const download = async (e: Entry) => {
    if (offlineAndNotKept(e)) return toast.warning(STORAGE_BROWSER_TEXT.needsNetwork)
    try {
      downloadBlob(await fileBlob(root, e.path), e.name)
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
    }
  }
  // The link is made by the server (never queued): the dialog asks how long it works.
  const copyLink = (e: Entry) => {
    if (!reachable) return toast.warning(STORAGE_BROWSER_TEXT.linkNeedsNetwork)
    openDialog({ kind: 'share', entry: e })
  }
  const toggleKeep = async (e: Entry) => {
    try {
      if (kept.has(e.path)) await dropOffline(root, e.path)
      else {
        if (!reachable) return toast.warning(STORAGE_BROWSER_TEXT.needsNetwork)
        await keepOffline(root, e.path)
        toast.success(STORAGE_BROWSER_TEXT.keptOffline(e.name))
      }
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
    }
  }

  const menu = (e: Entry): MenuItem[] => {
    const items: MenuItem[] = []
    const file = e.type === 'file'
    if (file) {
      items.push({ label: 'Download', run: () => void download(e) })
      items.push({ label: 'Copy link', run: () => copyLink(e) })
      items.push({
        label: kept.has(e.path) ? 'Stop keeping offline' : 'Keep offline',
        run: () => void toggleKeep(e),
      })
    }
    if (may('u', e.path)) {
      items.push({ label: 'Rename…', run: () => openDialog({ kind: 'rename', entry: e }) })
      items.push({ label: 'Move to…', run: () => openDialog({ kind: 'move', entries: [e] }) })
    }
    if (may('r', e.path) && mayCreateAnywhere)
      items.push({ label: 'Copy to…', run: () => openDialog({ kind: 'copy', entries: [e] }) })
    if (may('u', e.path))
      items.push({ label: 'Edit description…', run: () => openDialog({ kind: 'describe', entry: e }) })
    if (may('d', e.path))
      items.push({ label: 'Delete', danger: true, run: () => void act.deleteEntries(root, [e]) })
    return items
  }

  /** The preview dialog's buttons for the file it shows. */
  const previewActions = (e: Entry): ReactNode => (
    <>
      <label className="check-row">
        <input type="checkbox" checked={kept.has(e.path)} onChange={() => void toggleKeep(e)} />
        Keep offline
      </label>
      {may('u', e.path) && (
        <button
          type="button"
          className="mc-button"
          onClick={() => openDialog({ kind: 'describe', entry: e })}
        >
          Edit description
        </button>
      )}
      <button type="button" className="mc-button" onClick={() => copyLink(e)}>
        Copy link
      </button>
      <button type="button" className="mc-button mc-button-primary" onClick={() => void download(e)}>
        Download
      </button>
    </>
  )

  return { menu, previewActions }
}
