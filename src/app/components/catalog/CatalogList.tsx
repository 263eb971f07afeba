/**
 * The list screen of a catalogue section (/discounts, /products; docs/using/payments.md): the
 * "Discount codes | Products" tabs, the shared RecordList over the mirror's rows, and the "New …"
 * form with the section's own fields, checked with the server's messages before it is queued.
 */
import { type FormEvent, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { type Crumb, useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { useServerReachable } from '../../sync-ui/use-server-reachable'
import { RecordList } from '../RecordList'
import type { Column } from '../VirtualTable'
import { useCatalogRows } from './catalog-data'
import { type CatalogKind, createBody, recordHref } from './catalog-kind'
import '../ui.css'
import '../records.css'
import './catalog.css'

/** The Discount codes / Products tabs, on both lists: where a shop owner finds products. */
function CatalogTabs({ current }: { current: string }) {
  const tab = (href: string, label: string) => (
    <Link href={href} className="tab" aria-current={current === href ? 'page' : undefined}>
      {label}
    </Link>
  )
  return (
    <nav className="tabs" aria-label="Shop sections">
      {tab('/discounts', 'Discount codes')}
      {tab('/products', 'Products')}
    </nav>
  )
}

/** An Active column's cell, for both lists. */
export const activePill = (d: SyncDoc) => (
  <span className={d.active === false ? 'pill' : 'pill pill-on'}>{d.active === false ? 'Off' : 'On'}</span>
)

export interface CatalogListProps<F, K extends string> {
  kind: CatalogKind<F>
  crumbs: readonly Crumb[]
  columns: Column<SyncDoc>[]
  defaultSort: K
  /** Stable (useCallback or module level): RecordList memoizes on them. */
  searchText: (doc: SyncDoc) => string[]
  sortValue: (doc: SyncDoc, by: K) => string | number
  searchPlaceholder: string
}

export function CatalogList<F, K extends string>(props: CatalogListProps<F, K>) {
  const { kind } = props
  usePageTitle(kind.title)
  useBreadcrumbs(props.crumbs)
  const allowed = useCan()
  const rows = useCatalogRows(kind.collection)
  const [, navigate] = useLocation()
  if (!allowed(`${kind.collection}:r`))
    return <NoAccess section={kind.title} needed={`${kind.collection}:r`} />
  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <CatalogTabs current={kind.listHref} />
      <RecordList<K>
        collection={kind.collection}
        rows={rows}
        title={kind.title}
        noun={kind.noun}
        href={(id) => recordHref(kind, id)}
        columns={props.columns}
        defaultSort={props.defaultSort}
        searchText={props.searchText}
        sortValue={props.sortValue}
        searchPlaceholder={props.searchPlaceholder}
        renderCreate={(close) => (
          <CreateRecord
            kind={kind}
            onDone={(id) => {
              close()
              navigate(recordHref(kind, id))
            }}
          />
        )}
      />
    </section>
  )
}

function CreateRecord<F>({ kind, onDone }: { kind: CatalogKind<F>; onDone: (id: string) => void }) {
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
