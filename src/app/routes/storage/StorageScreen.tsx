/**
 * The file browser of Storage (/storage/…) and the Web Server (/static/…), one screen parameterised by
 * its root. The path in the URL is a folder, or a file whose preview opens over its folder. It lists
 * the mirrored entry documents (works offline, follows other users live) with the offline queue laid
 * over them, and sends every write through the queue (actions.ts). What the session may not do is not
 * offered; the server checks every path again. See docs/using/storage.md.
 *
 * This file holds the screen's state and layout; its parts: StorageToolbar (search, sort, view),
 * UploadActions, SelectionBar, BrowserDialogs, entry-actions (row menu, preview buttons),
 * use-drag-drop and use-browser-keys.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { countOf } from '../../../shared/plural'
import type { StorageRoot } from '../../../shared/storage'
import { STORAGE_BROWSER_TEXT } from '../../../shared/texts'
import { NoAccess } from '../../session/NoAccess'
import { useCan, useMayUnder } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { type Crumb, useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import {
  allFolders,
  browserHref,
  type Entry,
  folderRows,
  folderTree,
  type SortOrder,
} from '../../storage/entries'
import { cancelItem, retryItem, useKeptOffline } from '../../storage/queue'
import * as act from './actions'
import { type BrowserDialog, BrowserDialogs } from './BrowserDialogs'
import { EntryList } from './EntryList'
import { useEntryActions } from './entry-actions'
import { FolderTree } from './FolderTree'
import { PreviewDialog } from './PreviewDialog'
import { SelectionBar } from './SelectionBar'
import { StorageToolbar, useView } from './StorageToolbar'
import { UploadActions } from './UploadActions'
import { useBrowserKeys } from './use-browser-keys'
import { useDragDrop } from './use-drag-drop'
import { useEntries } from './use-entries'
import '../../components/ui.css'
import './storage.css'

export function StorageScreen({ root, title, rest }: { root: StorageRoot; title: string; rest: string }) {
  const session = useSession()
  const mayRead = useMayUnder(root, 'r')
  if (session.status !== 'authenticated')
    return (
      <section className="empty-state" aria-labelledby="page-heading">
        <h1 id="page-heading">{title}</h1>
        <p>{STORAGE_BROWSER_TEXT.logIn}</p>
        <Link
          href={`/login?redirect=${encodeURIComponent(browserHref(root, rest))}`}
          className="button button-primary"
        >
          Log in
        </Link>
      </section>
    )
  if (!mayRead) return <NoAccess section={title} needed={`${root}:r`} />
  return <Browser root={root} title={title} target={rest} />
}

function Browser({ root, title, target }: { root: StorageRoot; title: string; target: string }) {
  const [, navigate] = useLocation()
  const allowed = useCan()
  const may = useCallback(
    (letter: 'r' | 'c' | 'u' | 'd', path: string) =>
      allowed(path ? `${root}/${path}:${letter}` : `${root}:${letter}`),
    [allowed, root],
  )
  const entries = useEntries(root)
  const kept = useKeptOffline(root)
  const [view, setView] = useView()
  const [sort, setSort] = useState<SortOrder>({ by: 'name', reverse: false })
  const [query, setQuery] = useState('')
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [dialog, setDialog] = useState<BrowserDialog>(null)
  const [treeOpen, setTreeOpen] = useState(false)

  const byPath = useMemo(() => {
    const m = new Map<string, Entry>()
    for (const e of entries ?? []) if (!e.pending) m.set(e.path, e)
    return m
  }, [entries])
  const targetEntry = byPath.get(target)
  const previewing = targetEntry?.type === 'file' ? targetEntry : null
  const folder = previewing ? previewing.parent : target
  const missing = entries !== undefined && target !== '' && !targetEntry
  const rows = useMemo(() => folderRows(entries ?? [], folder, query, sort), [entries, folder, query, sort])
  const tree = useMemo(() => folderTree(entries ?? []), [entries])
  const folders = useMemo(() => allFolders(entries ?? []), [entries])
  const knownFolders = useMemo(() => new Set(folders), [folders])
  const rootLabel = STORAGE_BROWSER_TEXT.rootName[root]
  const folderName = folder ? folder.slice(folder.lastIndexOf('/') + 1) : title
  const mayCreateHere = may('c', folder) && !missing
  const mayCreateAnywhere = folders.some((f) => may('c', f))
  const clearSelection = () => setSelected(new Set())

  // The selection belongs to a folder: leaving it, or a row going away, drops it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the folder changes.
  useEffect(() => {
    setSelected(new Set())
  }, [folder])
  useEffect(() => {
    setSelected((s) => {
      const live = new Set([...s].filter((k) => byPath.has(k)))
      return live.size === s.size ? s : live
    })
  }, [byPath])

  const crumbs: Crumb[] = [{ label: title, href: `/${root}` }]
  const parts = target.split('/').filter(Boolean)
  parts.forEach((name, i) => {
    const path = parts.slice(0, i + 1).join('/')
    crumbs.push(i === parts.length - 1 ? name : { label: name, href: browserHref(root, path) })
  })
  if (!parts.length) crumbs[0] = title
  useBreadcrumbs(crumbs)
  usePageTitle(previewing ? previewing.name : folder ? folderName : null)

  const selectedEntries = useMemo(
    () => [...selected].map((k) => byPath.get(k)).filter((e): e is Entry => !!e),
    [selected, byPath],
  )
  const selectable = useMemo(() => rows.filter((r) => !r.pending), [rows])
  const toggleAll = () =>
    setSelected(
      selectable.length && selectable.every((r) => selected.has(r.key))
        ? new Set()
        : new Set(selectable.map((r) => r.key)),
    )
  const deletable = selectedEntries.length > 0 && selectedEntries.every((e) => may('d', e.path))
  const movable = selectedEntries.length > 0 && selectedEntries.every((e) => may('u', e.path))
  const removeSelected = () => {
    if (!deletable) return
    void act.deleteEntries(root, selectedEntries).then((ok) => ok && setSelected(new Set()))
  }
  useBrowserKeys({
    covered: !!(dialog || previewing),
    selectedCount: selected.size,
    toggleAll,
    removeSelected,
    clearSelection,
    treeOpen,
    closeTree: () => setTreeOpen(false),
  })

  const { menu, previewActions } = useEntryActions({
    root,
    kept,
    may,
    mayCreateAnywhere,
    openDialog: setDialog,
  })
  const { drop, onDragStart, zone, dropping } = useDragDrop({
    root,
    folder,
    mayCreateHere,
    may,
    byPath,
    knownFolders,
    selected,
    clearSelection,
  })

  const uploads = (entries ?? []).filter((e) => e.pending?.kind === 'upload')
  const sent = uploads.reduce((n, e) => n + (e.pending?.sent ?? 0), 0)
  const total = uploads.reduce((n, e) => n + (e.pending?.total ?? 0), 0)

  const empty =
    entries === undefined
      ? STORAGE_BROWSER_TEXT.loading
      : query
        ? STORAGE_BROWSER_TEXT.noMatch
        : mayCreateHere
          ? STORAGE_BROWSER_TEXT.empty
          : STORAGE_BROWSER_TEXT.emptyReadOnly

  return (
    <section className="screen storage-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{folderName}</h1>
          <p className="muted" aria-live="polite">
            {entries === undefined ? STORAGE_BROWSER_TEXT.loading : countOf(rows.length, 'item')}
          </p>
        </div>
        {mayCreateHere && (
          <UploadActions
            root={root}
            folder={folder}
            knownFolders={knownFolders}
            onNewFolder={() => setDialog({ kind: 'mkdir' })}
          />
        )}
      </header>

      <StorageToolbar
        treeOpen={treeOpen}
        onToggleTree={() => setTreeOpen((v) => !v)}
        query={query}
        onQuery={setQuery}
        sort={sort}
        onSort={setSort}
        view={view}
        onView={setView}
      />

      {selected.size > 0 && (
        <SelectionBar
          count={selected.size}
          movable={movable}
          copyable={mayCreateAnywhere}
          deletable={deletable}
          onMove={() => setDialog({ kind: 'move', entries: selectedEntries })}
          onCopy={() => setDialog({ kind: 'copy', entries: selectedEntries })}
          onDelete={removeSelected}
          onClear={clearSelection}
        />
      )}

      {uploads.length > 0 && (
        <div className="storage-upload-total" role="status">
          <span>{STORAGE_BROWSER_TEXT.uploading(uploads.length)}</span>
          <progress aria-label="Total upload progress" max={total || 1} value={sent} />
        </div>
      )}

      <div className={`storage-body${treeOpen ? ' tree-open' : ''}`}>
        <nav id="storage-tree" className="storage-tree" aria-label="Folders">
          <FolderTree
            root={root}
            rootLabel={rootLabel}
            tree={tree}
            current={folder}
            drop={drop}
            onNavigate={() => setTreeOpen(false)}
          />
        </nav>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop zone; the Upload buttons are its keyboard way. */}
        <div
          className={`storage-main${dropping ? ' is-dropping' : ''}`}
          onDragOver={zone.onDragOver}
          onDragLeave={zone.onDragLeave}
          onDrop={zone.onDrop}
          data-testid="storage-drop"
        >
          {dropping && <p className="storage-drop-hint">{STORAGE_BROWSER_TEXT.dropHere}</p>}
          {missing ? (
            <p className="notice notice-warning" role="status">
              {STORAGE_BROWSER_TEXT.notFound}
            </p>
          ) : (
            <EntryList
              root={root}
              rows={rows}
              listingKey={`${folder}\n${query}\n${sort.by}:${sort.reverse}`}
              view={view}
              selected={selected}
              kept={kept}
              sort={sort}
              onSort={(by) =>
                setSort((s) => (s.by === by ? { by, reverse: !s.reverse } : { by, reverse: false }))
              }
              onToggle={(key) => {
                const next = new Set(selected)
                if (next.has(key)) next.delete(key)
                else next.add(key)
                setSelected(next)
              }}
              onToggleAll={toggleAll}
              menu={menu}
              drop={drop}
              onDragStart={onDragStart}
              canDrag={(e) => !e.pending && may('u', e.path)}
              onCancel={(id) => void cancelItem(id)}
              onRetry={(id) => void retryItem(id)}
              empty={empty}
            />
          )}
        </div>
      </div>

      {previewing && (
        <PreviewDialog
          key={previewing.path}
          root={root}
          entry={previewing}
          kept={kept.has(previewing.path)}
          onClose={() => navigate(browserHref(root, folder))}
          actions={previewActions(previewing)}
        />
      )}

      <BrowserDialogs
        dialog={dialog}
        root={root}
        folder={folder}
        entries={entries ?? []}
        siblings={new Set(rows.map((r) => r.name))}
        folders={folders}
        mayCreate={(f) => may('c', f)}
        onDone={clearSelection}
        onClose={() => setDialog(null)}
      />
    </section>
  )
}
