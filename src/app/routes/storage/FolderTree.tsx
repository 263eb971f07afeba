/**
 * The folder tree beside the listing (a drawer behind the "Folders" button on narrow screens): links to
 * each folder, expanded along the current path, with a toggle per folder that has sub-folders. A folder
 * is also a drop target: files dropped from the desktop upload into it, rows dragged from the listing
 * move into it (use-drag-drop.ts).
 */
import { ChevronDown, ChevronRight, Folder, FolderOpen } from 'lucide-react'
import { type DragEvent, useState } from 'react'
import { Link } from 'wouter'
import type { StorageRoot } from '../../../shared/storage'
import { browserHref, type Entry, isWithin } from '../../storage/entries'

export interface DropHandlers {
  onDragOver: (e: DragEvent, folder: string) => void
  onDrop: (e: DragEvent, folder: string) => void
}

export function FolderTree({
  root,
  rootLabel,
  tree,
  current,
  drop,
  onNavigate,
}: {
  root: StorageRoot
  rootLabel: string
  tree: ReadonlyMap<string, Entry[]>
  current: string
  drop: DropHandlers
  onNavigate?: () => void
}) {
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map())
  const isOpen = (path: string) => toggled.get(path) ?? (path === '' || isWithin(current, path))
  const toggle = (path: string) => setToggled(new Map(toggled).set(path, !isOpen(path)))

  const node = (folder: Entry | null, depth: number) => {
    const path = folder?.path ?? ''
    const children = tree.get(path) ?? []
    const open = isOpen(path)
    const here = path === current
    return (
      <li key={path || '/'}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the row's link and the Move dialog are the keyboard way. */}
        <div
          className={`storage-tree-row${here ? ' is-current' : ''}`}
          style={{ paddingInlineStart: `${depth * 14}px` }}
          onDragOver={(e) => drop.onDragOver(e, path)}
          onDrop={(e) => drop.onDrop(e, path)}
          data-folder={path}
        >
          {children.length ? (
            <button
              type="button"
              className="storage-tree-toggle"
              aria-expanded={open}
              aria-label={`${open ? 'Collapse' : 'Expand'} ${folder?.name ?? rootLabel}`}
              onClick={() => toggle(path)}
            >
              {open ? (
                <ChevronDown size={14} aria-hidden="true" />
              ) : (
                <ChevronRight size={14} aria-hidden="true" />
              )}
            </button>
          ) : (
            <span className="storage-tree-toggle" aria-hidden="true" />
          )}
          <Link
            href={browserHref(root, path)}
            aria-current={here ? 'page' : undefined}
            onClick={onNavigate}
            className={folder?.pending ? 'is-pending' : undefined}
          >
            {here ? <FolderOpen size={15} aria-hidden="true" /> : <Folder size={15} aria-hidden="true" />}
            <span>{folder?.name ?? rootLabel}</span>
          </Link>
        </div>
        {open && children.length > 0 && <ul>{children.map((c) => node(c, depth + 1))}</ul>}
      </li>
    )
  }

  return <ul className="storage-tree-list">{node(null, 0)}</ul>
}
