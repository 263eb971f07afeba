/**
 * The editor of one catalogue record (/discounts/{code}, /products/{id}): the section's fields saved
 * through the outbox (toolbar Save or Ctrl/Cmd+S, so editing works offline) and Delete with the SPEC
 * §8 confirmation, both from the shared RecordScreen. Only the fields changed since the opened version
 * are sent, with that version as base: a discount's `uses` counted meanwhile by a checkout, or another
 * device's edit of another field, is never overwritten.
 */
import { type ReactNode, useMemo } from 'react'
import type { SyncDoc } from '../../../db/types'
import { useMutate } from '../../data/sync-context'
import { useSaveRefusal } from '../../data/use-save-refusal'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { type Crumb, useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { RecordScreen } from '../RecordScreen'
import { RefusalNote } from '../RefusalNote'
import { useCatalogRow } from './catalog-data'
import { type CatalogKind, changedFields } from './catalog-kind'
import '../ui.css'
import '../records.css'
import './catalog.css'

export interface CatalogRecordProps<F> {
  kind: CatalogKind<F>
  id: string
  crumbs: readonly Crumb[]
  /** The line under the heading (price, uses, state …). */
  meta: (doc: SyncDoc) => ReactNode
  /** Extra buttons of the heading, before Delete. */
  actions?: ReactNode
}

export function CatalogRecord<F>(props: CatalogRecordProps<F>) {
  const { kind, id } = props
  const allowed = useCan()
  usePageTitle(id)
  useBreadcrumbs(props.crumbs)
  const path = `${kind.collection}/${id}`
  if (!allowed(`${path}:r`)) return <NoAccess section={`${kind.label} ${id}`} needed={`${path}:r`} />
  return <Editor {...props} />
}

function Editor<F>({ kind, id, meta, actions }: CatalogRecordProps<F>) {
  const row = useCatalogRow(kind.collection, id)
  const doc = row?.doc
  const original = useMemo(() => kind.formOf(doc), [kind, doc])
  const edit = useEditState<F, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const canEdit = allowed(`${kind.collection}/${id}:u`)
  const checked = kind.fieldsOf(edit.value)
  const problem = 'error' in checked ? checked.error : null
  const errors = 'error' in checked ? checked.errors : undefined
  const refused = useSaveRefusal(kind.collection, id)
  // The server names the record's field; the note stands beside the form field that edits it.
  const refusal = useMemo(
    () => (refused?.field ? { ...refused, field: kind.fieldOf?.[refused.field] ?? refused.field } : refused),
    [refused, kind],
  )
  const { Fields } = kind

  const save = async () => {
    if (!edit.modified || 'error' in checked) return
    const before = kind.fieldsOf(edit.base)
    const patch = changedFields('fields' in before ? before.fields : {}, checked.fields)
    try {
      const saved = await mutate.patch(kind.collection, id, patch, { base: edit.baseVersion ?? undefined })
      edit.commit(kind.formOf(saved), saved)
      notifySaved(`${kind.label} ${kind.savedName(id, checked.fields)}`, reachable, {
        collection: kind.collection,
        id,
      })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc && canEdit ? save : null, { disabled: !edit.modified || !!problem })

  return (
    <RecordScreen
      placesRefusals
      collection={kind.collection}
      id={id}
      row={row}
      edit={edit}
      noun={kind.noun[0]}
      canEdit={canEdit}
      listHref={kind.listHref}
      goneText={`This ${kind.noun[0]} no longer exists (deleted here or elsewhere).`}
      className={`${kind.collection}-record`}
      canDelete={allowed(`${kind.collection}/${id}:d`)}
      actions={actions}
      meta={meta}
    >
      {() => (
        <>
          <section className="panel" aria-labelledby="record-panel-heading">
            <h2 id="record-panel-heading">{kind.label}</h2>
            <Fields
              form={edit.value}
              onChange={(next) => edit.setValue(next)}
              readOnly={!canEdit}
              prefix="edit"
              errors={edit.modified ? errors : undefined}
              refusal={refusal}
            />
            {edit.modified && problem && !errors && (
              <p className="field-error" role="alert">
                {problem}
              </p>
            )}
            <RefusalNote refusal={refusal} field={null} fields={Object.keys(edit.value as object)} />
          </section>
        </>
      )}
    </RecordScreen>
  )
}
