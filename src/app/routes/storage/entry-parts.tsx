/**
 * The pieces a listing row and a grid card share: the entry's icon, its name cell (link, description,
 * size and date line, "kept offline" pin), its "Actions for …" menu, the queued state of a ghost row
 * (progress, Cancel / Retry), the list's sort buttons, and the props both views take.
 */
import { ArrowDown, ArrowUp, CloudOff, File, FileText, Folder, Image, MoreVertical, Pin } from 'lucide-react'
import type { DragEvent, ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import type { StorageRoot } from '../../../shared/storage'
import { STORAGE_QUEUE_TEXT } from '../../../shared/texts'
import { formatBytes } from '../../components/format'
import { browserHref, type Entry, previewKind, type SortKey, type SortOrder } from '../../storage/entries'
import type { DropHandlers } from './FolderTree'

export interface MenuItem {
  label: string
  run: () => void
  danger?: boolean
}

export interface ListProps {
  root: StorageRoot
  rows: readonly Entry[]
  view: 'list' | 'grid'
  selected: ReadonlySet<string>
  kept: ReadonlySet<string>
  sort: SortOrder
  onSort: (by: SortKey) => void
  onToggle: (key: string) => void
  onToggleAll: () => void
  menu: (e: Entry) => MenuItem[]
  drop: DropHandlers
  onDragStart: (e: DragEvent, entry: Entry) => void
  canDrag: (e: Entry) => boolean
  onCancel: (id: string) => void
  onRetry: (id: string) => void
  empty: ReactNode
  /** Names the listing (folder, search, sort): when it changes the keyboard focus goes back to the top. */
  listingKey: string
}

export const dateText = (iso: string) => (iso ? new Date(iso).toLocaleString() : '—')

export function EntryIcon({ entry, size = 18 }: { entry: Entry; size?: number }) {
  if (entry.type === 'directory') return <Folder size={size} aria-hidden="true" className="icon-folder" />
  const kind = previewKind(entry.name, entry.contentType)
  if (kind === 'image' || kind === 'svg') return <Image size={size} aria-hidden="true" />
  if (kind === 'text' || kind === 'pdf') return <FileText size={size} aria-hidden="true" />
  return <File size={size} aria-hidden="true" />
}

export function RowMenu({ entry, items }: { entry: Entry; items: MenuItem[] }) {
  if (!items.length) return null
  return (
    <details className="menu storage-row-menu">
      <summary className="button button-quiet button-small" aria-label={`Actions for ${entry.name}`}>
        <MoreVertical size={16} aria-hidden="true" />
      </summary>
      <div className="menu-panel" role="menu" aria-label={`Actions for ${entry.name}`}>
        {items.map((item) => (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            className={`menu-item${item.danger ? ' menu-item-danger' : ''}`}
            onClick={(e) => {
              const menu = (e.currentTarget as HTMLElement).closest('details')
              if (menu) menu.open = false
              item.run()
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </details>
  )
}

/** A queued upload/folder/copy/move: its status, progress and Cancel / Retry. */
export function PendingState({
  entry,
  onCancel,
  onRetry,
}: {
  entry: Entry
  onCancel: () => void
  onRetry: () => void
}) {
  const p = entry.pending!
  const statusText = STORAGE_QUEUE_TEXT.status[p.status] ?? p.status
  return (
    <span className="storage-pending">
      {p.kind === 'upload' ? (
        <progress
          aria-label={STORAGE_QUEUE_TEXT.progressLabel(entry.name)}
          max={p.total || 1}
          value={p.sent}
        />
      ) : (
        <CloudOff size={13} aria-hidden="true" />
      )}
      <span className={`storage-status storage-status-${p.status}`} title={p.error}>
        {statusText}
        {p.kind === 'upload' && p.status === 'running'
          ? ` ${Math.floor((100 * p.sent) / (p.total || 1))}%`
          : ''}
      </span>
      {p.status === 'failed' && (
        <button type="button" className="button button-quiet button-small" onClick={onRetry}>
          {STORAGE_QUEUE_TEXT.retry}
          <span className="visually-hidden"> {entry.name}</span>
        </button>
      )}
      <button type="button" className="button button-quiet button-small" onClick={onCancel}>
        {STORAGE_QUEUE_TEXT.cancel}
        <span className="visually-hidden"> {entry.name}</span>
      </button>
    </span>
  )
}

export function NameCell({ root, entry, kept }: { root: StorageRoot; entry: Entry; kept: boolean }) {
  return (
    <span className="storage-name">
      <EntryIcon entry={entry} />
      <span className="storage-name-text">
        {entry.pending ? (
          <span className="storage-ghost-name">{entry.name}</span>
        ) : (
          <Link href={browserHref(root, entry.path)} className="storage-link" draggable={false}>
            {entry.name}
          </Link>
        )}
        {entry.description && <span className="muted storage-desc-line">{entry.description}</span>}
        <span className="muted storage-meta-line">
          {entry.type === 'file' ? `${formatBytes(entry.size)} · ` : ''}
          {dateText(entry.modified)}
        </span>
      </span>
      {kept && (
        <span className="storage-kept" title="Kept offline on this device">
          <Pin size={13} aria-hidden="true" />
          <span className="visually-hidden">Kept offline</span>
        </span>
      )}
    </span>
  )
}

export function SortHeader({
  label,
  by,
  sort,
  onSort,
}: {
  label: string
  by: SortKey
  sort: SortOrder
  onSort: (by: SortKey) => void
}) {
  const active = sort.by === by
  return (
    <button type="button" className="vt-sort" onClick={() => onSort(by)}>
      {label}
      {active &&
        (sort.reverse ? (
          <ArrowDown size={13} aria-hidden="true" />
        ) : (
          <ArrowUp size={13} aria-hidden="true" />
        ))}
    </button>
  )
}

export const sortState = (sort: SortOrder, by: SortKey) =>
  sort.by === by ? (sort.reverse ? 'descending' : 'ascending') : undefined

/** A row's drag source, and for a folder its drop target (rows move into it, files upload into it). */
export function rowDrag(props: ListProps, entry: Entry) {
  return {
    draggable: props.canDrag(entry),
    onDragStart: (e: DragEvent) => props.onDragStart(e, entry),
    ...(entry.type === 'directory' && !entry.pending
      ? {
          onDragOver: (e: DragEvent) => props.drop.onDragOver(e, entry.path),
          onDrop: (e: DragEvent) => props.drop.onDrop(e, entry.path),
          'data-folder': entry.path,
        }
      : {}),
  }
}

export function RowCheck({ props, entry }: { props: ListProps; entry: Entry }) {
  return entry.pending ? null : (
    <input
      type="checkbox"
      aria-label={`Select ${entry.name}`}
      checked={props.selected.has(entry.key)}
      onChange={() => props.onToggle(entry.key)}
    />
  )
}

/** The "Select all" state of the shown rows (ghost rows cannot be selected). */
export function allChecked(props: ListProps): { checked: boolean; disabled: boolean } {
  let any = false
  for (const r of props.rows) {
    if (r.pending) continue
    any = true
    if (!props.selected.has(r.key)) return { checked: false, disabled: false }
  }
  return { checked: any, disabled: !any }
}

/** Opens a row from the keyboard as its link would: a folder navigates, a file opens its preview. */
export function useOpenEntry(props: ListProps) {
  const [, navigate] = useLocation()
  return (index: number) => {
    const entry = props.rows[index]
    if (entry && !entry.pending) navigate(browserHref(props.root, entry.path))
  }
}
