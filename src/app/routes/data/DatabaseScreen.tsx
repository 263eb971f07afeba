/**
 * Database (SPEC §2 /data): the `data/…` collections of the local mirror with their document counts,
 * and a way to start a new one. A collection exists on the server once it holds a document, so "new"
 * opens the empty collection, where the first document or an import creates it.
 */
import { Database, Plus } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { isValidCollectionName } from '../../../shared/ids'
import { SCREENS_TEXT } from '../../../shared/texts'
import { useSyncDb } from '../../data/sync-context'
import { NoAccess } from '../../session/NoAccess'
import { useCan, useMayUnder } from '../../session/use-can'
import { usePageTitle } from '../../shell/page-chrome'
import { useDataCollections } from './doc-source'
import './data.css'

export function DatabaseScreen() {
  usePageTitle('Database')
  const db = useSyncDb()
  const can = useCan()
  // An empty collection listed for its schema only when its documents may be read.
  const collections = useDataCollections(db)?.filter((c) => c.count > 0 || can(`data/${c.name}:r`))
  const [, navigate] = useLocation()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  // Nothing to list because nothing may be read (no group, no data grant): say so, as Users does,
  // instead of "No collections yet" and a form whose documents the server would refuse.
  const mayRead = useMayUnder('data', 'r')
  const mayCreate = useMayUnder('data', 'c')

  const create = (e: FormEvent) => {
    e.preventDefault()
    const n = name.trim()
    if (!isValidCollectionName(n)) {
      setError(SCREENS_TEXT.invalidCollectionName)
      return
    }
    navigate(`/data/${encodeURIComponent(n)}`)
  }

  if (!mayRead && !collections?.length) return <NoAccess section="Database" needed="data:r" />

  return (
    <section className="screen" aria-labelledby="page-heading">
      <header className="screen-head">
        <h1 id="page-heading">Database</h1>
        <p className="muted">
          Collections on this device, kept in sync with the server. They open offline too.
        </p>
      </header>
      {collections === undefined ? (
        <div className="screen-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading collections…
        </div>
      ) : collections.length === 0 ? (
        <p className="muted">{SCREENS_TEXT.noCollections}</p>
      ) : (
        <ul className="collection-list" aria-label="Collections">
          {collections.map((c) => (
            <li key={c.name}>
              <Link href={`/data/${encodeURIComponent(c.name)}`} className="collection-link">
                <span className="card-icon" aria-hidden="true">
                  <Database size={18} strokeWidth={1.75} />
                </span>
                <span className="collection-name">{c.name}</span>
                <span className="count-badge">
                  {c.count.toLocaleString()}
                  <span className="visually-hidden"> documents</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {mayCreate && (
        <form className="inline-form" onSubmit={create} noValidate>
          <label htmlFor="new-collection">New collection</label>
          <div className="inline-form-row">
            <input
              id="new-collection"
              className="input"
              placeholder="e.g. contacts"
              value={name}
              aria-invalid={!!error}
              aria-describedby={error ? 'new-collection-error' : undefined}
              onChange={(e) => {
                setName(e.target.value)
                setError(null)
              }}
            />
            <button type="submit" className="button button-primary">
              <Plus size={16} aria-hidden="true" /> Create
            </button>
          </div>
          {error && (
            <p id="new-collection-error" className="field-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  )
}
