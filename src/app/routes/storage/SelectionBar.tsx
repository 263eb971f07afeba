/** The bar shown while rows are selected: move, copy and delete them (each where allowed), or clear. */
import { X } from 'lucide-react'
import { countOf } from '../../../shared/plural'

export function SelectionBar({
  count,
  movable,
  copyable,
  deletable,
  onMove,
  onCopy,
  onDelete,
  onClear,
}: {
  count: number
  movable: boolean
  copyable: boolean
  deletable: boolean
  onMove: () => void
  onCopy: () => void
  onDelete: () => void
  onClear: () => void
}) {
  return (
    <section className="storage-selection" aria-label="Selection">
      <span>{countOf(count, 'item')} selected</span>
      {movable && (
        <button type="button" className="button button-quiet" onClick={onMove}>
          Move to…
        </button>
      )}
      {copyable && (
        <button type="button" className="button button-quiet" onClick={onCopy}>
          Copy to…
        </button>
      )}
      {deletable && (
        <button type="button" className="button button-danger" onClick={onDelete}>
          Delete {count}
        </button>
      )}
      <button type="button" className="button button-quiet" onClick={onClear}>
        <X size={14} aria-hidden="true" /> Clear selection
      </button>
    </section>
  )
}
