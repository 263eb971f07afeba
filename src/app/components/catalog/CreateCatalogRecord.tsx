/**
 * The "New …" form of a catalogue list (CatalogList.tsx): the section's own fields, and the id when
 * the section asks for one (a discount code), checked with the server's messages before the record is
 * queued through the outbox.
 */
import { type FormEvent, useState } from 'react'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { type CatalogKind, createBody } from './catalog-kind'

export function CreateCatalogRecord<F>({
  kind,
  onDone,
}: {
  kind: CatalogKind<F>
  onDone: (id: string) => void
}) {
  const mutate = useMutate()
  const reachable = useServerReachable()
  const [id, setId] = useState('')
  const [form, setForm] = useState<F>(() => kind.formOf(null))
  const [error, setError] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string> | undefined>()
  const { Fields, idField, noun } = kind
  const prefix = `new-${kind.collection}`

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const wanted = idField ? idField.normalize(id) : undefined
    const idProblem = idField && wanted !== undefined ? idField.check(wanted) : null
    const checked = kind.fieldsOf(form)
    // Every problem at once: the code's beside the button, each field's beside its field.
    setErrors('error' in checked ? checked.errors : undefined)
    const formProblem = 'error' in checked && !checked.errors ? checked.error : null
    setError(idProblem ?? formProblem)
    if (idProblem || 'error' in checked) return
    try {
      const saved = await mutate.create(kind.collection, createBody(checked.fields), wanted)
      notifySaved(`${kind.label} ${kind.savedName(saved._id, checked.fields)}`, reachable, {
        collection: kind.collection,
        id: saved._id,
      })
      onDone(saved._id)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }

  return (
    <form className="panel create-form" aria-label={`New ${noun[0]}`} onSubmit={(e) => void submit(e)}>
      {idField && (
        <div className="field">
          <label htmlFor={`${prefix}-id`}>{idField.label}</label>
          <input
            id={`${prefix}-id`}
            className="input"
            autoCapitalize="characters"
            value={id}
            onChange={(e) => setId(idField.normalize(e.target.value))}
          />
        </div>
      )}
      <Fields form={form} onChange={setForm} readOnly={false} prefix={prefix} errors={errors} />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary">
        Create {noun[0]}
      </button>
    </form>
  )
}
