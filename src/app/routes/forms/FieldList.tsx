/**
 * The editor's field list: select a field to configure it, reorder by dragging a row or from the
 * keyboard (focus a row's handle, ArrowUp / ArrowDown move it; the new position is announced), remove
 * a field, and add one of any type. Keyboard and pointer reach the same operations.
 */
import { GripVertical, Plus, Trash2 } from 'lucide-react'
import { type KeyboardEvent, useRef, useState } from 'react'
import {
  FORM_FIELD_LABELS,
  FORM_FIELD_TYPES,
  type FormField,
  type FormFieldType,
} from '../../../shared/forms'
import { FORMS_TEXT } from '../../../shared/texts'

export interface FieldListProps {
  fields: FormField[]
  selected: number
  readOnly: boolean
  onSelect: (index: number) => void
  onMove: (from: number, to: number) => void
  onRemove: (index: number) => void
  onAdd: (type: FormFieldType) => void
}

export function FieldList({ fields, selected, readOnly, onSelect, onMove, onRemove, onAdd }: FieldListProps) {
  const [addType, setAddType] = useState<FormFieldType>('text')
  const [dragging, setDragging] = useState<number | null>(null)
  const [announce, setAnnounce] = useState('')
  const handles = useRef<(HTMLButtonElement | null)[]>([])

  const moveBy = (index: number, delta: number) => {
    const to = index + delta
    if (to < 0 || to >= fields.length) return
    onMove(index, to)
    onSelect(to)
    setAnnounce(`${fields[index]?.label} moved to position ${to + 1} of ${fields.length}`)
    // The row re-renders at its new place: keep the focus on its handle for the next press.
    requestAnimationFrame(() => handles.current[to]?.focus())
  }
  const onHandleKey = (e: KeyboardEvent, index: number) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault()
      moveBy(index, e.key === 'ArrowUp' ? -1 : 1)
    }
  }

  return (
    <div className="form-field-list">
      {fields.length === 0 && <p className="muted">{FORMS_TEXT.noFields}</p>}
      <ol aria-label="Fields">
        {fields.map((f, i) => (
          <li
            key={f.name}
            className={`form-field-row${i === selected ? ' is-selected' : ''}${dragging === i ? ' is-dragging' : ''}${f.type === 'section' ? ' is-section' : ''}`}
            draggable={!readOnly}
            onDragStart={(e) => {
              setDragging(i)
              e.dataTransfer.effectAllowed = 'move'
              e.dataTransfer.setData('text/plain', String(i))
            }}
            onDragOver={(e) => {
              if (dragging !== null) e.preventDefault()
            }}
            onDrop={(e) => {
              e.preventDefault()
              if (dragging !== null && dragging !== i) {
                onMove(dragging, i)
                onSelect(i)
              }
              setDragging(null)
            }}
            onDragEnd={() => setDragging(null)}
          >
            {!readOnly && (
              <button
                type="button"
                className="icon-button form-drag-handle"
                ref={(el) => {
                  handles.current[i] = el
                }}
                aria-label={`Move ${f.label} (position ${i + 1} of ${fields.length}); use the up and down arrow keys`}
                onKeyDown={(e) => onHandleKey(e, i)}
              >
                <GripVertical size={16} aria-hidden="true" />
              </button>
            )}
            <button
              type="button"
              className="form-field-pick"
              aria-pressed={i === selected}
              onClick={() => onSelect(i)}
            >
              <span className="form-field-label">
                {f.label}
                {f.required ? ' *' : ''}
              </span>
              <span className="muted form-field-meta">
                {FORM_FIELD_LABELS[f.type] ?? f.type}
                {f.type !== 'section' && ` · ${f.name}`}
                {f.showIf && ` · if ${f.showIf.field} = ${String(f.showIf.equals)}`}
              </span>
            </button>
            {!readOnly && (
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${f.label}`}
                onClick={() => {
                  onRemove(i)
                  setAnnounce(`${f.label} removed`)
                }}
              >
                <Trash2 size={16} aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
      {!readOnly && (
        <div className="form-add-row">
          <label htmlFor="form-add-type">New field type</label>
          <select
            id="form-add-type"
            className="input"
            value={addType}
            onChange={(e) => setAddType(e.target.value as FormFieldType)}
          >
            {FORM_FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {FORM_FIELD_LABELS[t]}
              </option>
            ))}
          </select>
          <button type="button" className="button" onClick={() => onAdd(addType)}>
            <Plus size={16} aria-hidden="true" /> Add field
          </button>
        </div>
      )}
    </div>
  )
}
