/**
 * A collection's schema editor (/data/{collection}/~schema, issue 36, docs/using/schemas.md): the JSON
 * Schema of `schemas/{collection}` as one row per field, inferred from the mirrored documents on
 * request, with the documents it would not accept listed before saving (the shared validator, the
 * server's messages). It saves through the outbox like every editor, so offline too, and says which
 * it is: queued on this device, accepted by the server, or refused (SaveOutcome). Without the
 * permission to write the schema it is read-only and says which permission it needs.
 */
import { Plus, Sparkles } from 'lucide-react'
import { useMemo, useState } from 'react'
import type { SyncDoc } from '../../../../db/types'
import { SCHEMAS_COLLECTION, schemaIdFor, schemaOfDoc } from '../../../../shared/schema-keys'
import { FEEDBACK_TEXT, SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'
import { useRow } from '../../../data/collection-rows'
import { useMutate, useSyncDb } from '../../../data/sync-context'
import { stripServerFields } from '../../../data/transfer'
import { useSaveRefusal } from '../../../data/use-save-refusal'
import { confirm } from '../../../feedback/confirm-store'
import { toast } from '../../../feedback/toast-store'
import { useEditState } from '../../../hooks/use-edit-state'
import { NoAccess } from '../../../session/NoAccess'
import { ReadOnlyNote } from '../../../session/ReadOnly'
import { useCan, useWriteRefusal } from '../../../session/use-can'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../../shell/page-chrome'
import { useServerReachable } from '../../../sync-ui/use-server-reachable'
import { FieldRow } from './FieldRow'
import {
  buildSchema,
  emptyField,
  type FieldModel,
  modelOfSchema,
  problemCount,
  type SchemaModel,
} from './field-model'
import { inferFields } from './infer'
import { SaveOutcome } from './SaveOutcome'
import { scanDocs } from './scan'
import { useSchemaOutcome } from './use-schema-outcome'
import { checkViolations, useViolations } from './use-violations'
import { ViolationList } from './ViolationList'
import './schema.css'

// The top-level keywords that need no mention: the editor writes them or they only label the schema.
const SILENT = new Set(['$schema', 'title', 'description'])

export function SchemaScreen({ name }: { name: string }) {
  const collection = `data/${name}`
  const id = schemaIdFor(collection)
  const listHref = `/data/${encodeURIComponent(name)}`
  usePageTitle(T.title(name))
  useBreadcrumbs([{ label: 'Database', href: '/data' }, { label: name, href: listHref }, T.tab])
  const db = useSyncDb()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const can = useCan()
  const refusal = useWriteRefusal()
  const found = useRow(SCHEMAS_COLLECTION, id)
  const row = found === undefined ? undefined : (found?.doc ?? null)
  const { model, rest } = useMemo(() => modelOfSchema(schemaOfDoc(row ?? undefined)), [row])
  const edit = useEditState<SchemaModel, SyncDoc | null>(model, { version: row ?? null })
  const built = buildSchema(edit.value, rest)
  const violations = useViolations(db, collection, built.schema)
  const [attempted, setAttempted] = useState(false)
  const [saving, setSaving] = useState(false)
  const [sent, setSent] = useState(false)
  const [inferNote, setInferNote] = useState<string | null>(null)
  const outcome = useSchemaOutcome(SCHEMAS_COLLECTION, id, sent)
  const saveRefusal = useSaveRefusal(SCHEMAS_COLLECTION, id)
  const saveRefused = row ? refusal('update', SCHEMAS_COLLECTION, id) : refusal('create', SCHEMAS_COLLECTION)
  const readOnly = !!saveRefused
  const problems = built.problems
  // A row just added is not scolded for the name it does not have yet; Save shows everything.
  const shown = (f: FieldModel) => (attempted || f.name.trim() ? problems[f.key] : undefined)

  const setFields = (fields: FieldModel[]) => edit.setValue((v) => ({ ...v, fields }))
  const change = (i: number, next: FieldModel) =>
    setFields(edit.value.fields.map((f, j) => (j === i ? next : f)))

  const infer = async () => {
    if (!db) return
    const docs: Record<string, unknown>[] = []
    await scanDocs(db, collection, (page) => docs.push(...page))
    if (!docs.length) {
      setInferNote(T.inferNothing)
      return
    }
    const fields = inferFields(docs)
    setFields(fields)
    setInferNote(T.inferred(fields.length, docs.length))
  }

  const save = async () => {
    if (saving || readOnly) return
    setAttempted(true)
    const count = problemCount(problems)
    if (count) {
      toast.error(T.fixFirst(count))
      return
    }
    // Saved within the check's delay after an edit, the live count is not there yet: count now.
    const current = violations ?? (db ? await checkViolations(db, collection, built.schema) : null)
    const bad = current?.count ?? 0
    const go =
      bad === 0 ||
      (await confirm({
        title: T.confirmTitle,
        text: T.confirmText(bad),
        confirmLabel: T.confirmSave,
        cancelLabel: FEEDBACK_TEXT.cancel,
      }))
    if (!go) return
    setSaving(true)
    try {
      // The schema document's other fields (a title, notes) are kept.
      const { _id, ...others } = row ? stripServerFields(row) : { _id: id }
      const body = { ...others, schema: built.schema }
      const doc = row
        ? await mutate.put(SCHEMAS_COLLECTION, id, body, { base: edit.baseVersion ?? null })
        : await mutate.create(SCHEMAS_COLLECTION, body, id)
      edit.commit(modelOfSchema(schemaOfDoc(doc)).model, doc)
      setSent(true)
      setInferNote(null)
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }
  useSaveAction(row !== undefined && !readOnly ? save : null, { disabled: saving || !edit.modified })

  if (!can(`${SCHEMAS_COLLECTION}/${id}:r`))
    return <NoAccess section={T.title(name)} needed={`${SCHEMAS_COLLECTION}/${id}:r`} />
  if (row === undefined)
    return (
      <div className="screen-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </div>
    )

  const kept = Object.keys(rest).filter((k) => !SILENT.has(k))
  return (
    <section className="screen schema-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{T.title(name)}</h1>
          <p className="muted">
            {row ? `${SCHEMAS_COLLECTION}/${id} · revision ${String(row._rev)}` : T.none}
          </p>
        </div>
        <div className="actions">
          {edit.modified && (
            <button type="button" className="button button-quiet" onClick={edit.undo}>
              Undo changes
            </button>
          )}
          {!readOnly && (
            <button type="button" className="button button-quiet" onClick={() => void infer()}>
              <Sparkles size={16} aria-hidden="true" /> <span className="button-label">{T.infer}</span>
            </button>
          )}
        </div>
      </header>
      {saveRefused && <ReadOnlyNote needed={saveRefused.needed} action={T.readOnlyAction} />}
      <SaveOutcome outcome={outcome} reachable={reachable} refusal={saveRefusal} />
      <p className="field-hint">{T.intro}</p>
      {inferNote && (
        <p className="notice schema-infer-note" role="status">
          {inferNote}
        </p>
      )}
      <div className="schema-fields">
        {edit.value.fields.length === 0 && <p className="muted">{T.noFields}</p>}
        {edit.value.fields.map((f, i) => (
          <FieldRow
            key={f.key}
            field={f}
            problems={shown(f)}
            readOnly={readOnly}
            onChange={(next) => change(i, next)}
            onRemove={() => setFields(edit.value.fields.filter((_, j) => j !== i))}
          />
        ))}
      </div>
      {!readOnly && (
        <button
          type="button"
          className="button button-quiet schema-add"
          onClick={() => setFields([...edit.value.fields, emptyField()])}
        >
          <Plus size={16} aria-hidden="true" /> {T.addField}
        </button>
      )}
      <label className="schema-strict">
        <input
          type="checkbox"
          checked={edit.value.strict}
          disabled={readOnly}
          onChange={(e) => edit.setValue((v) => ({ ...v, strict: e.target.checked }))}
        />{' '}
        {T.strict}
      </label>
      {kept.length > 0 && <p className="field-hint">{T.kept(kept)}</p>}
      <ViolationList name={name} violations={violations} />
      <details className="schema-json">
        <summary>{T.json}</summary>
        <pre className="mono">{JSON.stringify(built.schema, null, 2)}</pre>
      </details>
    </section>
  )
}
