/**
 * The file browser of Storage (/storage/…) and the Web Server (/static/…), one screen parameterised by
 * its root. The path in the URL is a folder, or a file whose preview opens over its folder. It lists
 * the mirrored entry documents (works offline, follows other users live) with the offline queue laid
 * over them, and sends every write through the queue (actions.ts). What the session may not do is not
 * offered; the server checks every path again. See docs/storage-console.md.
 */
import {
  FolderPlus,
  FolderUp,
  LayoutGrid,
  List,
  Search,
  FolderTree as TreeIcon,
  Upload,
  X,
} from 'lucide-react'
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { STORAGE_BROWSER_TEXT } from '../../../shared/messages'
import { countOf } from '../../../shared/plural'
import type { StorageRoot } from '../../../shared/storage'
import { createShareLink } from '../../api/share'
import { downloadBlob } from '../../components/format'
import { toast } from '../../feedback/toast-store'
import { useShortcut } from '../../hooks/use-shortcut'
import { useCan, useMayUnder } from '../../session/use-can'
import { useSession } from '../../session/use-session'
import { type Crumb, useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import {
  cancelItem,
  dropOffline,
  fileBlob,
  keepOffline,
  retryItem,
  useKeptOffline,
} from '../../storage/queue'
import { NoAccess } from '../users/NoAccess'
import * as act from './actions'
import { DescriptionDialog, FolderPickerDialog, NameDialog } from './dialogs'
import { EntryList, type MenuItem } from './EntryList'
import {
  allFolders,
  browserHref,
  type Entry,
  folderRows,
  folderTree,
  isWithin,
  moveTargets,
  type SortKey,
  type SortOrder,
} from './entries'
import { FolderTree } from './FolderTree'
import { PreviewDialog } from './PreviewDialog'
import { useEntries } from './use-entries'
import '../../components/ui.css'
import './storage.css'

const VIEW_KEY = 'momentum.storage.view'
const DRAG_TYPE = 'application/x-momentum-storage'

type Dialog =
  | { kind: 'mkdir' }
  | { kind: 'rename'; entry: Entry }
  | { kind: 'describe'; entry: Entry }
  | { kind: 'move' | 'copy'; entries: Entry[] }
  | null

function useView(): ['list' | 'grid', (v: 'list' | 'grid') => void] {
  const [view, setView] = useState<'list' | 'grid'>(() =>
    localStorage.getItem(VIEW_KEY) === 'grid' ? 'grid' : 'list',
  )
  return [
    view,
    (v) => {
      localStorage.setItem(VIEW_KEY, v)
      setView(v)
    },
  ]
}

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
  const [dialog, setDialog] = useState<Dialog>(null)
  const [treeOpen, setTreeOpen] = useState(false)
  const [dropping, setDropping] = useState(false)
  const filesInput = useRef<HTMLInputElement>(null)
  const folderInput = useRef<HTMLInputElement>(null)

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
  useShortcut('selectAll', dialog || previewing ? null : toggleAll)
  useShortcut('delete', selected.size && !dialog && !previewing ? removeSelected : null)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if (document.querySelector('dialog[open]')) return
      if (treeOpen) setTreeOpen(false)
      else if (selected.size) setSelected(new Set())
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [treeOpen, selected.size])

  // ---- file actions ----
  const offlineAndNotKept = (e: Entry) => !kept.has(e.path) && !navigator.onLine
  const download = async (e: Entry) => {
    if (offlineAndNotKept(e)) return toast.warning(STORAGE_BROWSER_TEXT.needsNetwork)
    try {
      downloadBlob(await fileBlob(root, e.path), e.name)
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
    }
  }
  const copyLink = async (e: Entry) => {
    if (!navigator.onLine) return toast.warning(STORAGE_BROWSER_TEXT.linkNeedsNetwork)
    try {
      const { url } = await createShareLink(root, e.path)
      try {
        await navigator.clipboard.writeText(url)
        toast.success(STORAGE_BROWSER_TEXT.linkCopied)
      } catch {
        // No clipboard permission: the link is still useful, shown to copy by hand.
        toast.success(url, 'Link')
      }
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
    }
  }
  const toggleKeep = async (e: Entry) => {
    try {
      if (kept.has(e.path)) await dropOffline(root, e.path)
      else {
        if (!navigator.onLine) return toast.warning(STORAGE_BROWSER_TEXT.needsNetwork)
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
      items.push({ label: 'Copy link', run: () => void copyLink(e) })
      items.push({
        label: kept.has(e.path) ? 'Stop keeping offline' : 'Keep offline',
        run: () => void toggleKeep(e),
      })
    }
    if (may('u', e.path)) {
      items.push({ label: 'Rename…', run: () => setDialog({ kind: 'rename', entry: e }) })
      items.push({ label: 'Move to…', run: () => setDialog({ kind: 'move', entries: [e] }) })
    }
    if (may('r', e.path) && mayCreateAnywhere)
      items.push({ label: 'Copy to…', run: () => setDialog({ kind: 'copy', entries: [e] }) })
    if (may('u', e.path))
      items.push({ label: 'Edit description…', run: () => setDialog({ kind: 'describe', entry: e }) })
    if (may('d', e.path))
      items.push({ label: 'Delete', danger: true, run: () => void act.deleteEntries(root, [e]) })
    return items
  }

  // ---- drag and drop ----
  const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files')
  const hasRows = (e: DragEvent) => [...e.dataTransfer.types].includes(DRAG_TYPE)
  const drop = {
    onDragOver: (e: DragEvent, target: string) => {
      if (hasRows(e) ? !may('c', target) : !(hasFiles(e) && may('c', target))) return
      e.preventDefault()
      e.stopPropagation()
      e.dataTransfer.dropEffect = hasRows(e) ? 'move' : 'copy'
    },
    onDrop: (e: DragEvent, target: string) => {
      e.preventDefault()
      e.stopPropagation()
      setDropping(false)
      const raw = e.dataTransfer.getData(DRAG_TYPE)
      if (raw) {
        const paths = JSON.parse(raw) as string[]
        const moving = paths
          .map((p) => byPath.get(p))
          .filter((x): x is Entry => !!x && !isWithin(target, x.path) && may('u', x.path))
        void act.moveInto(root, moving, target).then(() => setSelected(new Set()))
        return
      }
      const pending = act.pickedOfDrop(e.dataTransfer)
      void pending.then((picked) => act.upload(root, target, picked, knownFolders))
    },
  }
  const onDragStart = (e: DragEvent, entry: Entry) => {
    const paths = selected.has(entry.key) ? [...selected] : [entry.path]
    e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(paths))
    e.dataTransfer.setData('text/plain', paths.join('\n'))
    e.dataTransfer.effectAllowed = 'move'
  }

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
  const siblings = new Set(rows.map((r) => r.name))

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
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => filesInput.current?.click()}
            >
              <Upload size={16} aria-hidden="true" /> Upload files
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => folderInput.current?.click()}
            >
              <FolderUp size={16} aria-hidden="true" /> Upload folder
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setDialog({ kind: 'mkdir' })}
            >
              <FolderPlus size={16} aria-hidden="true" /> New folder
            </button>
            <input
              ref={filesInput}
              type="file"
              multiple
              className="visually-hidden"
              tabIndex={-1}
              aria-label="Files to upload"
              data-testid="upload-files"
              onChange={(e) => {
                void act.upload(root, folder, act.pickedOfInput(e.target.files), knownFolders)
                e.target.value = ''
              }}
            />
            <input
              ref={folderInput}
              type="file"
              multiple
              className="visually-hidden"
              tabIndex={-1}
              aria-label="Folder to upload"
              data-testid="upload-folder"
              {...({ webkitdirectory: '' } as Record<string, string>)}
              onChange={(e) => {
                void act.upload(root, folder, act.pickedOfInput(e.target.files), knownFolders)
                e.target.value = ''
              }}
            />
          </div>
        )}
      </header>

      <div className="storage-toolbar">
        <button
          type="button"
          className="button button-quiet storage-tree-button"
          aria-expanded={treeOpen}
          aria-controls="storage-tree"
          onClick={() => setTreeOpen((v) => !v)}
        >
          <TreeIcon size={16} aria-hidden="true" /> Folders
        </button>
        <div className="search-row storage-search">
          <Search size={16} aria-hidden="true" />
          <input
            className="input"
            type="search"
            aria-label="Search in this folder"
            placeholder="Search in this folder"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <label className="storage-sort">
          <span className="visually-hidden">Sort by</span>
          <select
            className="input"
            aria-label="Sort by"
            value={`${sort.by}:${sort.reverse ? 'desc' : 'asc'}`}
            onChange={(e) => {
              const [by, dir] = e.target.value.split(':') as [SortKey, string]
              setSort({ by, reverse: dir === 'desc' })
            }}
          >
            <option value="name:asc">Name A–Z</option>
            <option value="name:desc">Name Z–A</option>
            <option value="size:asc">Size, smallest first</option>
            <option value="size:desc">Size, largest first</option>
            <option value="modified:desc">Date, newest first</option>
            <option value="modified:asc">Date, oldest first</option>
          </select>
        </label>
        <fieldset className="storage-views">
          <legend className="visually-hidden">View</legend>
          <button
            type="button"
            className="button button-quiet"
            aria-pressed={view === 'list'}
            aria-label="List view"
            onClick={() => setView('list')}
          >
            <List size={16} aria-hidden="true" /> <span className="storage-view-label">List</span>
          </button>
          <button
            type="button"
            className="button button-quiet"
            aria-pressed={view === 'grid'}
            aria-label="Grid view"
            onClick={() => setView('grid')}
          >
            <LayoutGrid size={16} aria-hidden="true" /> <span className="storage-view-label">Grid</span>
          </button>
        </fieldset>
      </div>

      {selected.size > 0 && (
        <section className="storage-selection" aria-label="Selection">
          <span>{countOf(selected.size, 'item')} selected</span>
          {movable && (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setDialog({ kind: 'move', entries: selectedEntries })}
            >
              Move to…
            </button>
          )}
          {mayCreateAnywhere && (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setDialog({ kind: 'copy', entries: selectedEntries })}
            >
              Copy to…
            </button>
          )}
          {deletable && (
            <button type="button" className="button button-danger" onClick={removeSelected}>
              Delete {selected.size}
            </button>
          )}
          <button type="button" className="button button-quiet" onClick={() => setSelected(new Set())}>
            <X size={14} aria-hidden="true" /> Clear selection
          </button>
        </section>
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
          onDragOver={(e) => {
            if (!hasFiles(e) || !mayCreateHere) return
            e.preventDefault()
            setDropping(true)
          }}
          onDragLeave={(e) => {
            if (e.currentTarget === e.target) setDropping(false)
          }}
          onDrop={(e) => {
            if (!hasFiles(e) || !mayCreateHere) return
            drop.onDrop(e, folder)
          }}
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
          actions={
            <>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={kept.has(previewing.path)}
                  onChange={() => void toggleKeep(previewing)}
                />
                Keep offline
              </label>
              {may('u', previewing.path) && (
                <button
                  type="button"
                  className="mc-button"
                  onClick={() => setDialog({ kind: 'describe', entry: previewing })}
                >
                  Edit description
                </button>
              )}
              <button type="button" className="mc-button" onClick={() => void copyLink(previewing)}>
                Copy link
              </button>
              <button
                type="button"
                className="mc-button mc-button-primary"
                onClick={() => void download(previewing)}
              >
                Download
              </button>
            </>
          }
        />
      )}

      {dialog?.kind === 'mkdir' && (
        <NameDialog
          title="New folder"
          label="Folder name"
          submitLabel="Create folder"
          taken={siblings}
          onSubmit={(name) => act.createFolder(root, folder, name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={`Rename ${dialog.entry.name}`}
          label="New name"
          submitLabel="Rename"
          initial={dialog.entry.name}
          taken={new Set((entries ?? []).filter((e) => e.parent === dialog.entry.parent).map((e) => e.name))}
          onSubmit={(name) => act.rename(root, dialog.entry, name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'describe' && (
        <DescriptionDialog
          name={dialog.entry.name}
          initial={dialog.entry.description ?? ''}
          onSubmit={(text) => act.describe(root, dialog.entry, text)}
          onClose={() => setDialog(null)}
        />
      )}
      {(dialog?.kind === 'move' || dialog?.kind === 'copy') && (
        <FolderPickerDialog
          root={root}
          title={`${dialog.kind === 'move' ? 'Move' : 'Copy'} ${dialog.entries.length === 1 ? dialog.entries[0]!.name : countOf(dialog.entries.length, 'item')} to…`}
          submitLabel={dialog.kind === 'move' ? 'Move here' : 'Copy here'}
          folders={(dialog.kind === 'move'
            ? moveTargets(folders, dialog.entries)
            : folders.filter(
                (f) => !dialog.entries.some((s) => s.type === 'directory' && isWithin(f, s.path)),
              )
          ).filter((f) => may('c', f))}
          initial={folder}
          onSubmit={async (to) => {
            if (dialog.kind === 'move') await act.moveInto(root, dialog.entries, to)
            else await act.copyInto(root, dialog.entries, to)
            setSelected(new Set())
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </section>
  )
}
