/**
 * One document of a collection (/data/{collection}/{id}; /data/{collection}/new creates one). The
 * document comes live from the mirror, so a change by someone else shows at once (an unmodified form
 * takes it; a modified one keeps the edit and the version it started from, see use-edit-state). Two
 * views of one edit state: fields and JSON. Saving goes through the mutation API with the toolbar's
 * Save button or Ctrl/Cmd+S: put with the opened version as `base`, so only the user's changes are sent
 * (removed fields go away) and a concurrent change is merged or becomes a conflict, never reverted.
 * Deleted elsewhere during an edit: the edit stays and can be re-created or discarded.
 * A collection with a schema (issue 17) is checked here with the server's messages before saving, from
 * the mirrored schema, so offline too; a document that does not conform is not saved.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { isValidId } from '../../../shared/ids'
import { SCHEMAS_COLLECTION, schemaIdFor, schemaOfDoc } from '../../../shared/schema-keys'
import { hasFieldErrors, validateDocument } from '../../../shared/schema-validation'
import { EDIT_BASE_TEXT, SCHEMA_TEXT, SCREENS_TEXT } from '../../../shared/texts'
import { JsonEditor } from '../../components/JsonEditor'
import { parseJsonObject, prettyJson } from '../../components/json-text'
import { RefusalNote } from '../../components/RefusalNote'
import { useRow } from '../../data/collection-rows'
import { useMutate, useSyncDb } from '../../data/sync-context'
import { stripServerFields } from '../../data/transfer'
import { useSaveRefusal } from '../../data/use-save-refusal'
import { deepEqual } from '../../feedback/deep-equal'
import { confirmDelete, notifyDeleted, notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useEditState } from '../../hooks/use-edit-state'
import { useShortcut } from '../../hooks/use-shortcut'
import { DeniedButton, ReadOnlyNote } from '../../session/ReadOnly'
import { useWriteRefusal } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle, useSaveAction } from '../../shell/page-chrome'
import { SyncMarker, useConflictIds } from '../../sync-ui/SyncMarker'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { FieldsForm } from './FieldsForm'

type Body = Record<string, unknown>
const EMPTY: Body = {}
const bodyOf = (doc: Record<string, unknown>): Body => {
  const { _id, ...rest } = stripServerFields(doc)
  return rest
}

export function DocumentScreen({ name, id }: { name: string; id: string }) {
  const creating = id === 'new'
  const collection = `data/${name}`
  const listHref = `/data/${encodeURIComponent(name)}`
  usePageTitle(creating ? `New document in ${name}` : id)
  useBreadcrumbs([
    { label: 'Database', href: '/data' },
    { label: name, href: listHref },
    creating ? 'New' : id,
  ])
  const db = useSyncDb()
  const mutate = useMutate()
  const reachable = useServerReachable()
  const [, navigate] = useLocation()
  const row = useLiveQuery(
    async () => (db && !creating ? ((await db.docs.get([collection, id])) ?? null) : null),
    [db, collection, id, creating],
  )
  const loaded = creating || row !== undefined
  const original = row ? bodyOf(row.doc) : EMPTY
  const conflicts = useConflictIds(db, collection)
  const edit = useEditState<Body, SyncDoc | null>(original, { version: row?.doc ?? null })
  const [tab, setTab] = useState<'fields' | 'json'>('fields')
  const [jsonText, setJsonText] = useState('')
  const [newId, setNewId] = useState('')
  const [saving, setSaving] = useState(false)
  const [done, setDone] = useState<string | null>(null)
  const [attempted, setAttempted] = useState(false)
  const schema = schemaOfDoc(useRow(SCHEMAS_COLLECTION, schemaIdFor(collection))?.doc)

  const json = tab === 'json' ? parseJsonObject(jsonText) : null
  const checked = json?.ok ? bodyOf(json.value) : edit.value
  const fieldErrors = schema === undefined ? {} : validateDocument(schema, checked)
  // A new, untouched document is not scolded for what it does not have yet.
  const shownErrors = attempted || edit.modified || !creating ? fieldErrors : {}
  const idError = creating && newId && !isValidId(newId) ? 'Use 1-128 letters, digits and . _ @ + -' : null
  const blocked = (json !== null && !json.ok) || !!idError || saving
  // What the session may not do to this document (per document path, as the server checks it): Save
  // is absent and the form read-only; Delete stays, disabled, with the reason (issue 11).
  const refusal = useWriteRefusal()
  const saveRefused = creating ? refusal('create', collection) : refusal('update', collection, id)
  const deleteRefused = refusal('delete', collection, id)
  // The server's refusal of a queued save of this document, here as well as in the Sync panel.
  const queuedRefusal = useSaveRefusal(collection, creating ? undefined : id)

  // After a create the form is committed first, so the leave guard has nothing to ask about.
  useEffect(() => {
    if (done && !edit.modified) navigate(`${listHref}/${encodeURIComponent(done)}`, { replace: true })
  }, [done, edit.modified, listHref, navigate])

  // The JSON text follows the edit state when it moves on its own (Ctrl+Z / Ctrl+Y are the form's
  // undo and redo, in the textarea too): text that already says the same is left as typed.
  useEffect(() => {
    if (tab !== 'json') return
    setJsonText((text) => {
      const parsed = parseJsonObject(text)
      return parsed.ok && deepEqual(bodyOf(parsed.value), edit.value) ? text : prettyJson(edit.value)
    })
  }, [tab, edit.value])

  const showTab = (next: 'fields' | 'json') => {
    if (next === 'json') setJsonText(prettyJson(edit.value))
    setTab(next)
  }

  const save = async () => {
    if (blocked || saveRefused) return
    setAttempted(true)
    if (hasFieldErrors(fieldErrors)) {
      toast.error(SCHEMA_TEXT.documentRejected(fieldErrors))
      return
    }
    const body = json?.ok ? bodyOf(json.value) : edit.value
    setSaving(true)
    try {
      if (creating) {
        const doc = await mutate.create(collection, body, newId.trim() || undefined)
        edit.commit(body)
        notifySaved(`Document ${doc._id}`, reachable, { collection, id: doc._id })
        setDone(doc._id)
      } else {
        // Against the version the user opened: someone else's change since then is not reverted.
        const doc = await mutate.put(collection, id, body, { base: edit.baseVersion ?? null })
        edit.commit(bodyOf(doc), doc)
        if (json) setJsonText(prettyJson(bodyOf(doc)))
        notifySaved(`Document ${id}`, reachable, { collection, id })
      }
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }
  // Nothing changed, nothing to save: an unchanged save would only make a new revision (issue 11).
  useSaveAction(loaded && (creating || row) && !saveRefused ? save : null, {
    disabled: blocked || (!creating && !edit.modified),
  })

  // No Save for a read-only document, and Ctrl/Cmd+S does nothing (not the browser's "save page").
  useShortcut('save', saveRefused ? () => {} : null)

  // Deleted elsewhere while edited: a create with the user's values brings it back under the same id.
  const recreate = async () => {
    const body = json?.ok ? bodyOf(json.value) : edit.value
    setSaving(true)
    try {
      const doc = await mutate.create(collection, body, id)
      edit.commit(bodyOf(doc), doc)
      notifySaved(`Document ${id}`, reachable, { collection, id })
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e))
    } finally {
      setSaving(false)
    }
  }
  // Nothing unsaved any more: the leave guard lets go and the plain "does not exist" page shows.
  const discard = () => edit.commit(EMPTY, null)

  const remove = async () => {
    if (!(await confirmDelete(1, 'document'))) return
    try {
      await mutate.delete(collection, id)
      edit.commit(original)
      notifyDeleted(1, 1, reachable, { collection, id })
      navigate(listHref)
    } catch (e) {
      notifyDeleted(0, 1, reachable, [])
      toast.error(e instanceof Error ? e.message : String(e))
    }
  }

  if (!loaded)
    return (
      <div className="screen-loading" role="status">
        <span className="spinner" aria-hidden="true" /> Loading…
      </div>
    )
  if (!creating && !row && edit.modified)
    return (
      <section className="empty-state doc-gone" aria-labelledby="page-heading">
        <h1 id="page-heading">{id}</h1>
        <p className="notice notice-warning" role="alert">
          {EDIT_BASE_TEXT.goneWithEdits}
        </p>
        <section aria-label="Your changes">
          <pre className="doc-gone-edit">{prettyJson(json?.ok ? bodyOf(json.value) : edit.value)}</pre>
        </section>
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            disabled={saving}
            onClick={() => void recreate()}
          >
            {EDIT_BASE_TEXT.recreate}
          </button>
          <button type="button" className="button button-quiet" onClick={discard}>
            {EDIT_BASE_TEXT.discard}
          </button>
        </div>
      </section>
    )
  if (!creating && !row)
    return (
      <section className="empty-state" aria-labelledby="page-heading">
        <h1 id="page-heading">{id}</h1>
        <p>{SCREENS_TEXT.documentGone}</p>
        <a
          href={listHref}
          className="button button-quiet"
          onClick={(e) => {
            e.preventDefault()
            navigate(listHref)
          }}
        >
          Back to {name}
        </a>
      </section>
    )

  return (
    <section className="screen doc-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{creating ? 'New document' : id}</h1>
          <p className="muted">
            {name}
            {row?.doc._rev !== undefined && ` · revision ${String(row.doc._rev)}`}
            {row?.doc._updated && ` · updated ${new Date(row.doc._updated).toLocaleString()}`}
            {row?.pending === 1 && <SyncMarker conflict={conflicts.get(id)} />}
          </p>
        </div>
        <div className="actions">
          {edit.modified && (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                edit.undo()
                if (tab === 'json') setJsonText(prettyJson(original))
              }}
            >
              Undo changes
            </button>
          )}
          {!creating &&
            (deleteRefused ? (
              <DeniedButton className="button button-danger-quiet" reason={deleteRefused.message}>
                <Trash2 size={16} aria-hidden="true" /> Delete
              </DeniedButton>
            ) : (
              <button type="button" className="button button-danger-quiet" onClick={() => void remove()}>
                <Trash2 size={16} aria-hidden="true" /> Delete
              </button>
            ))}
        </div>
      </header>
      {saveRefused && (
        <ReadOnlyNote
          needed={saveRefused.needed}
          action={creating ? 'create documents here' : 'edit this document'}
        />
      )}
      <RefusalNote refusal={queuedRefusal} field={null} />
      {edit.changedElsewhere && (
        <p className="notice notice-warning" role="status">
          {EDIT_BASE_TEXT.changedElsewhere}
        </p>
      )}
      {creating && (
        <div className="field">
          <label htmlFor="doc-id">Id (optional)</label>
          <input
            id="doc-id"
            className="input"
            placeholder="Generated when empty"
            value={newId}
            aria-invalid={!!idError}
            onChange={(e) => setNewId(e.target.value)}
          />
          {idError && <p className="field-error">{idError}</p>}
        </div>
      )}
      <div className="tabs" role="tablist" aria-label="Editor">
        {(['fields', 'json'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            className="tab"
            disabled={tab === 'json' && t === 'fields' && json !== null && !json.ok}
            onClick={() => showTab(t)}
          >
            {t === 'fields' ? 'Fields' : 'JSON'}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'fields' ? (
          <fieldset className="readonly-fieldset" disabled={!!saveRefused}>
            <FieldsForm value={edit.value} onChange={edit.setValue} schema={schema} errors={shownErrors} />
          </fieldset>
        ) : (
          <>
            {hasFieldErrors(shownErrors) && (
              <ul className="field-error schema-errors" aria-label={SCHEMA_TEXT.errorsLabel}>
                {Object.entries(shownErrors).map(([path, message]) => (
                  <li key={path}>{path ? `${path}: ${message}` : message}</li>
                ))}
              </ul>
            )}
            <JsonEditor
              label="Document JSON"
              readOnly={!!saveRefused}
              value={jsonText}
              rows={18}
              onChange={(text) => {
                setJsonText(text)
                const parsed = parseJsonObject(text)
                if (parsed.ok) edit.setValue(bodyOf(parsed.value))
              }}
            />
          </>
        )}
      </div>
    </section>
  )
}
