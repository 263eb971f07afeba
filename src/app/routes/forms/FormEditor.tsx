/**
 * The forms editor (/forms/{path} for those with `forms/{path}:u`): the form's settings, its field
 * list (add, reorder by drag or keyboard, configure, remove, conditions), and a live preview at phone
 * and desktop widths beside a JSON view of the document and the JSON Schema it stands for. Save
 * (toolbar or Ctrl/Cmd+S) writes through the outbox, so editing works offline; heading, Undo and
 * Delete come from the shared RecordScreen.
 */
import { Link2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import {
  FORMS,
  type FormDoc,
  type FormFieldType,
  fieldsFromSchema,
  formError,
  formNeeds,
  formOf,
  fullSchema,
} from '../../../shared/forms'
import { schemaIdFor } from '../../../shared/schema-keys'
import { DELEGATION_TEXT } from '../../../shared/texts'
import { RecordScreen } from '../../components/RecordScreen'
import { RefusalNote } from '../../components/RefusalNote'
import { useRow } from '../../data/collection-rows'
import { useMutate } from '../../data/sync-context'
import { useSaveRefusal } from '../../data/use-save-refusal'
import { notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { useCan } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { FieldList } from './FieldList'
import { FieldSettings } from './FieldSettings'
import { FormPreview } from './FormPreview'
import { FORM_REFUSAL_FIELDS, FormSettings } from './FormSettings'
import { changeField, docOf, moveField, newField, removeField } from './form-edit'

export function FormEditor({ id, row }: { id: string; row: { doc: SyncDoc; pending: boolean } | undefined }) {
  const doc = row?.doc
  const original = useMemo(() => formOf(doc), [doc])
  const edit = useEditState<FormDoc, SyncDoc | null>(original, { version: doc ?? null })
  const allowed = useCan()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const [selected, setSelected] = useState(0)
  const form = edit.value
  const problem = formError(docOf(form))
  // Setting where answers go or who is told needs those rights (the server's rule, shared): say so
  // beside the field before saving, and show the server's refusal of a queued save there too.
  const lacking = edit.modified
    ? formNeeds(doc ?? null, docOf(form)).filter((n) => !allowed(n.permission))
    : []
  const fieldErrors: Record<string, string> = {}
  for (const n of lacking) fieldErrors[n.field] = DELEGATION_TEXT.needs(n.what, n.permission)
  const refusal = useSaveRefusal(FORMS, id)
  usePageTitle(form.title || id)
  useBreadcrumbs([{ label: 'Forms', href: '/forms' }, id])

  const save = async () => {
    if (!edit.modified || problem || lacking.length) return
    try {
      const saved = await mutate.put(FORMS, id, docOf(form), { base: edit.baseVersion ?? null })
      edit.commit(formOf(saved), saved)
      notifySaved(`Form ${id}`, reachable, { collection: FORMS, id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }
  useSaveAction(doc ? save : null, { disabled: !edit.modified || !!problem || lacking.length > 0 })

  const setFields = (fields: FormDoc['fields']) => edit.setValue((v) => ({ ...v, fields }))
  const add = (type: FormFieldType) => {
    setFields([...form.fields, newField(type, form.fields)])
    setSelected(form.fields.length)
    // Straight on to its label: a keyboard user names the field next.
    requestAnimationFrame(() => document.getElementById('field-label')?.focus())
  }
  const field = form.fields[selected]

  return (
    <RecordScreen
      placesRefusals
      collection={FORMS}
      id={id}
      row={row}
      edit={edit}
      noun="form"
      listHref="/forms"
      goneText="This form no longer exists."
      className="form-editor-screen"
      canDelete={allowed(`${FORMS}/${id}:d`)}
      meta={() => (
        <>
          {form.title} · answers go to {form.target}
        </>
      )}
      actions={form.fill === 'link' ? <CopyLink id={id} /> : null}
    >
      {() => (
        <div className="form-editor">
          <div className="form-editor-main">
            <section className="panel" aria-labelledby="form-settings-heading">
              <h2 id="form-settings-heading">Form</h2>
              <FormSettings
                form={form}
                errors={fieldErrors}
                refusal={refusal}
                onChange={(next) => edit.setValue(next)}
              />
            </section>
            <section className="panel" aria-labelledby="form-fields-heading">
              <h2 id="form-fields-heading">Fields</h2>
              <FieldList
                fields={form.fields}
                selected={selected}
                readOnly={false}
                onSelect={setSelected}
                onMove={(from, to) => setFields(moveField(form.fields, from, to))}
                onRemove={(i) => {
                  setFields(removeField(form.fields, i))
                  setSelected(Math.max(0, Math.min(selected, form.fields.length - 2)))
                }}
                onAdd={add}
              />
              <FromSchema form={form} onAdd={(fields) => setFields([...form.fields, ...fields])} />
              {field && (
                <FieldSettings
                  key={selected}
                  field={field}
                  earlier={form.fields.slice(0, selected)}
                  readOnly={false}
                  onChange={(next) => setFields(changeField(form.fields, selected, next))}
                />
              )}
              {problem && (
                <p className="field-error" role="alert">
                  {problem}
                </p>
              )}
              <RefusalNote refusal={refusal} field={null} fields={FORM_REFUSAL_FIELDS} />
            </section>
          </div>
          <FormPreview form={form} schema={fullSchema(form)} onJson={(next) => edit.setValue(next)} />
        </div>
      )}
    </RecordScreen>
  )
}

/** "Add fields from the schema": the target collection's schema (if this device has it) as fields. */
function FromSchema({ form, onAdd }: { form: FormDoc; onAdd: (fields: FormDoc['fields']) => void }) {
  const row = useRow('schemas', schemaIdFor(form.target || 'x'))
  const taken = new Set(form.fields.map((f) => f.name))
  const fresh = fieldsFromSchema(row?.doc?.schema).filter((f) => !taken.has(f.name))
  if (!fresh.length) return null
  return (
    <p className="form-from-schema">
      <button type="button" className="button button-quiet" onClick={() => onAdd(fresh)}>
        Add {fresh.length} field{fresh.length === 1 ? '' : 's'} from the schema of {form.target}
      </button>
    </p>
  )
}

function CopyLink({ id }: { id: string }) {
  const url = `${location.origin}/ui/forms/${encodeURIComponent(id)}`
  return (
    <button
      type="button"
      className="button"
      onClick={() =>
        void navigator.clipboard
          ?.writeText(url)
          .then(() => toast.success('Link copied'))
          .catch(() => toast.error(url))
      }
    >
      <Link2 size={16} aria-hidden="true" /> Copy link
    </button>
  )
}
