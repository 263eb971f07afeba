/**
 * The bar above the listing: the folder tree's button (a drawer on a phone), search in the folder,
 * the sort order, and list or grid view (remembered on this device).
 */
import { LayoutGrid, List, Search, FolderTree as TreeIcon } from 'lucide-react'
import { useState } from 'react'
import type { SortKey, SortOrder } from '../../storage/entries'

const VIEW_KEY = 'momentum.storage.view'

export type View = 'list' | 'grid'

export function useView(): [View, (v: View) => void] {
  const [view, setView] = useState<View>(() => (localStorage.getItem(VIEW_KEY) === 'grid' ? 'grid' : 'list'))
  return [
    view,
    (v) => {
      localStorage.setItem(VIEW_KEY, v)
      setView(v)
    },
  ]
}

export function StorageToolbar({
  treeOpen,
  onToggleTree,
  query,
  onQuery,
  sort,
  onSort,
  view,
  onView,
}: {
  treeOpen: boolean
  onToggleTree: () => void
  query: string
  onQuery: (query: string) => void
  sort: SortOrder
  onSort: (sort: SortOrder) => void
  view: View
  onView: (view: View) => void
}) {
  return (
    <div className="storage-toolbar">
      <button
        type="button"
        className="button button-quiet storage-tree-button"
        aria-expanded={treeOpen}
        aria-controls="storage-tree"
        onClick={onToggleTree}
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
          onChange={(e) => onQuery(e.target.value)}
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
            onSort({ by, reverse: dir === 'desc' })
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
          onClick={() => onView('list')}
        >
          <List size={16} aria-hidden="true" /> <span className="storage-view-label">List</span>
        </button>
        <button
          type="button"
          className="button button-quiet"
          aria-pressed={view === 'grid'}
          aria-label="Grid view"
          onClick={() => onView('grid')}
        >
          <LayoutGrid size={16} aria-hidden="true" /> <span className="storage-view-label">Grid</span>
        </button>
      </fieldset>
    </div>
  )
}
