/**
 * Drag and drop in the file browser: files from the desktop upload into the folder (or tree folder)
 * they land on; rows dragged from the listing (the selection, or the one row) move into it. Only
 * where the session may create is a drop offered; the server checks every path again.
 */
import { type DragEvent, useState } from 'react'
import type { StorageRoot } from '../../../shared/storage'
import { type Entry, isWithin } from '../../storage/entries'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import * as act from './actions'
import type { DropHandlers } from './FolderTree'

/** The drag data of rows dragged from the listing: their paths as JSON. */
const DRAG_TYPE = 'application/x-momentum-storage'

const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files')
const hasRows = (e: DragEvent) => [...e.dataTransfer.types].includes(DRAG_TYPE)

export function useDragDrop(opts: {
  root: StorageRoot
  /** The folder on screen, the listing's own drop zone. */
  folder: string
  mayCreateHere: boolean
  may: (letter: 'c' | 'u', path: string) => boolean
  byPath: ReadonlyMap<string, Entry>
  knownFolders: ReadonlySet<string>
  selected: ReadonlySet<string>
  clearSelection: () => void
}) {
  const { root, folder, mayCreateHere, may, byPath, knownFolders, selected, clearSelection } = opts
  const [dropping, setDropping] = useState(false)
  const reachable = useServerReachable()

  const drop: DropHandlers = {
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
        void act.moveInto(root, moving, target).then(clearSelection)
        return
      }
      const pending = act.pickedOfDrop(e.dataTransfer)
      void pending.then((picked) => act.upload(root, target, picked, knownFolders, reachable))
    },
  }

  const onDragStart = (e: DragEvent, entry: Entry) => {
    const paths = selected.has(entry.key) ? [...selected] : [entry.path]
    e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(paths))
    e.dataTransfer.setData('text/plain', paths.join('\n'))
    e.dataTransfer.effectAllowed = 'move'
  }

  /** The listing's own zone, for files only: rows move by a drop on a folder (its row or the tree). */
  const zone = {
    onDragOver: (e: DragEvent<HTMLDivElement>) => {
      if (!hasFiles(e) || !mayCreateHere) return
      e.preventDefault()
      setDropping(true)
    },
    onDragLeave: (e: DragEvent<HTMLDivElement>) => {
      if (e.currentTarget === e.target) setDropping(false)
    },
    onDrop: (e: DragEvent<HTMLDivElement>) => {
      if (!hasFiles(e) || !mayCreateHere) return
      drop.onDrop(e, folder)
    },
  }

  return { drop, onDragStart, zone, dropping }
}
