/**
 * The "New …" form of a record list (RecordList's renderCreate): a panel of labelled inputs (text, or
 * a select when a field has options), the error of the last attempt, and one submit button; and
 * useCreateRecord, the id check → outbox create → "saved" toast → open it that every section shares.
 * Sections keep their own fields and starter documents; the markup and its accessibility live here once.
 */
import { type FormEvent, useState } from 'react'
import { isValidId } from '../../shared/ids'
import { SERVER_TEXT } from '../../shared/texts'
import { useMutate } from '../data/sync-context'
import { notifySaved } from '../feedback/notify'
import { useServerReachable } from '../sync-ui/use-server-reachable'

export interface CreateField {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  /** A select of these values instead of a text input. */
  options?: readonly string[]
}

/**
 * Creates a record through the outbox from the typed id and a starter body. `build` returns the body,
 * or a message when another field is not acceptable; `idName` names the id in the error ("id", "path").
 */
export function useCreateRecord(
  collection: string,
  noun: string,
  onDone: (id: string) => void,
  idName = 'id',
) {
  const mutate = useMutate()
  const reachable = useServerReachable()
  const [error, setError] = useState<string | null>(null)
  const submit = async (typed: string, build: (id: string) => Record<string, unknown> | string) => {
    const id = typed.trim()
    if (!isValidId(id)) return setError(SERVER_TEXT.idRule(idName))
    const body = build(id)
    if (typeof body === 'string') return setError(body)
    try {
      await mutate.create(collection, body, id)
      notifySaved(`${noun} ${id}`, reachable, { collection, id })
      onDone(id)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  return { error, submit }
}

export function CreateRecordForm(props: {
  label: string
  fields: CreateField[]
  error: string | null
  submitLabel: string
  onSubmit: () => Promise<unknown> | undefined
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void props.onSubmit()
  }
  return (
    <form className="panel create-form" onSubmit={submit} aria-label={props.label} noValidate>
      <div className="form-grid">
        {props.fields.map((f) => (
          <div className="field" key={f.id}>
            <label htmlFor={f.id}>{f.label}</label>
            {f.options ? (
              <select
                id={f.id}
                className="input"
                value={f.value}
                onChange={(e) => f.onChange(e.target.value)}
              >
                {f.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={f.id}
                className="input"
                placeholder={f.placeholder}
                value={f.value}
                onChange={(e) => f.onChange(e.target.value)}
              />
            )}
          </div>
        ))}
      </div>
      {props.error && (
        <p className="field-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary">
          {props.submitLabel}
        </button>
      </div>
    </form>
  )
}
