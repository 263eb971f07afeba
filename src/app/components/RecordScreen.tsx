/**
 * The detail screen of a record section (one user, one group, and the sections to come): loading and
 * "no longer exists" states, the heading with the not-synced/conflict marker, "Undo changes", the
 * single-record Delete (SPEC §8 confirmation, back to the list) and the "changed elsewhere" notice of
 * the edit base, and the server's refusal of a queued save of this record (useSaveRefusal) under the
 * heading, unless the section places its refusals beside its own fields. The section keeps its own edit state (useEditState), its save (bound with
 * useSaveAction) and its fields, passed as children. See docs/decisions/screens.md.
 */
import { Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { useLocation } from 'wouter'
import type { SyncDoc } from '../../db/types'
import { EDIT_BASE_TEXT } from '../../shared/texts'
import { useMutate, useSyncDb } from '../data/sync-context'
import { useSaveRefusal } from '../data/use-save-refusal'
import { confirmDelete, notifyDeleted } from '../feedback/notify'
import { toast } from '../feedback/toast-store'
import { text } from '../format/values'
import type { EditState } from '../hooks/use-edit-state'
import { ReadOnlyNote } from '../session/ReadOnly'
import { SyncMarker, useConflictIds } from '../sync-ui/SyncMarker'
import { useServerReachable } from '../sync-ui/use-server-reachable'
import { RefusalNote } from './RefusalNote'

export interface RecordScreenProps<T> {
  collection: 'users' | 'groups' | 'templates' | 'discounts' | 'products' | 'actions' | 'forms'
  id: string
  /** useRow's answer: undefined while loading, null when this device does not have the record. */
  row: { doc: SyncDoc; pending: boolean } | null | undefined
  edit: EditState<T, SyncDoc | null>
  /** Lower-case singular for the delete confirmation, e.g. "user". */
  noun: string
  listHref: string
  /** Shown when the record does not exist (SCREENS_TEXT.userGone …). */
  goneText: string
  /** Extra class of the section, e.g. "user-screen". */
  className: string
  canDelete: boolean
  /** False: the fields are read-only, and a note says which permission editing needs (`{collection}/{id}:u`). */
  canEdit?: boolean
  /** Extra buttons of the heading, before Delete (e.g. Duplicate). */
  actions?: ReactNode
  /** The line under the heading, before the sync marker. */
  meta: (doc: SyncDoc) => ReactNode
  /** True: the section shows the refusal of a queued save itself, beside the field it names. */
  placesRefusals?: boolean
  children: (doc: SyncDoc) => ReactNode
}

export function RecordScreen<T>(props: RecordScreenProps<T>) {
  const { collection, id, row, edit } = props
  const conflicts = useConflictIds(useSyncDb(), collection)
  const mutate = useMutate()
  const reachable = useServerReachable()
  const [, navigate] = useLocation()
  const doc = row?.doc
  const refusal = useSaveRefusal(collection, id)

  const remove = async () => {
    if (!(await confirmDelete(1, props.noun))) return
    try {
      await mutate.delete(collection, id)
      edit.commit(edit.original)
      notifyDeleted(1, 1, reachable, { collection, id })
      navigate(props.listHref)
    } catch (e) {
      notifyDeleted(0, 1, reachable, [])
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }

  if (row === undefined) return <RecordLoading />
  if (!doc) return <RecordGone id={id} text={props.goneText} />

  return (
    <section className={`screen auth-screen ${props.className}`} aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading" title={text(doc.name) || id}>
            {text(doc.name) || id}
          </h1>
          <p className="muted">
            {props.meta(doc)}
            {row?.pending && <SyncMarker conflict={conflicts.get(id)} />}
          </p>
        </div>
        <div className="actions">
          {edit.modified && (
            <button type="button" className="button button-quiet" onClick={edit.undo}>
              Undo changes
            </button>
          )}
          {props.actions}
          {props.canDelete && (
            <button type="button" className="button button-danger-quiet" onClick={() => void remove()}>
              <Trash2 size={16} aria-hidden="true" /> Delete
            </button>
          )}
        </div>
      </header>
      {edit.changedElsewhere && (
        <p className="notice notice-warning" role="status">
          {EDIT_BASE_TEXT.changedElsewhere}
        </p>
      )}
      {!props.placesRefusals && <RefusalNote refusal={refusal} field={null} />}
      {props.canEdit === false && (
        <ReadOnlyNote needed={`${props.collection}/${props.id}:u`} action={`edit this ${props.noun}`} />
      )}
      {props.children(doc)}
    </section>
  )
}

/** A detail screen while its record is read from the mirror. */
export function RecordLoading() {
  return (
    <div className="screen-loading" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  )
}

/** A detail screen whose record this device does not have (deleted, or not synced here). */
export function RecordGone({ id, text }: { id: string; text: string }) {
  return (
    <section className="empty-state" aria-labelledby="page-heading">
      <h1 id="page-heading">{id}</h1>
      <p>{text}</p>
    </section>
  )
}
