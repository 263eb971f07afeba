/**
 * Reports (/reports, issue 17): the saved reports of the local mirror, searchable and sortable, with
 * bulk delete and "New report" (an id and a collection). Built on the shared RecordList. Works offline:
 * a new report goes through the outbox and opens at once.
 */
import { type FormEvent, useCallback, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { isValidCollectionPath, isValidId } from '../../../shared/ids'
import { REPORT_TEXT } from '../../../shared/messages'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { useMutate } from '../../data/sync-context'
import { notifySaved } from '../../feedback/notify'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { text, useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { REPORTS, reportHref, starterReport } from './report-data'
import '../../components/ui.css'
import '../users/auth.css'
import './reports.css'

type SortKey = 'title' | 'collection' | 'view'

export function ReportsScreen() {
  usePageTitle('Reports')
  useBreadcrumbs([{ label: 'Forms', href: '/forms' }, 'Reports'])
  const allowed = useCan()
  if (!allowed(`${REPORTS}:r`)) return <NoAccess section="Reports" needed={`${REPORTS}:r`} />
  return <ReportsList />
}

function ReportsList() {
  const rows = useRows(REPORTS)
  const [, navigate] = useLocation()
  const searchText = useCallback((d: SyncDoc) => [d._id, text(d.title), text(d.collection)], [])
  const sortValue = useCallback(
    (d: SyncDoc, by: SortKey): string =>
      (by === 'title' ? text(d.title) || d._id : text(d[by])).toLowerCase(),
    [],
  )
  const columns: Column<SyncDoc>[] = [
    {
      key: 'title',
      label: 'Report',
      width: 280,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <Link href={reportHref(d._id)}>{text(d.title) || d._id}</Link>
          <span className="muted">{d._id}</span>
        </span>
      ),
    },
    { key: 'collection', label: 'Collection', width: 220, sortable: true, render: (d) => text(d.collection) },
    { key: 'view', label: 'View', width: 100, sortable: true, render: (d) => text(d.view) || 'table' },
  ]
  return (
    <section className="screen screen-table auth-screen reports-screen" aria-labelledby="page-heading">
      <RecordList<SortKey>
        collection={REPORTS}
        rows={rows}
        title="Reports"
        noun={['report', 'reports']}
        href={reportHref}
        columns={columns}
        defaultSort="title"
        searchText={searchText}
        sortValue={sortValue}
        searchPlaceholder="Search by title, id or collection"
        renderCreate={() => <CreateReport onDone={(id) => navigate(reportHref(id))} />}
      />
    </section>
  )
}

function CreateReport({ onDone }: { onDone: (id: string) => void }) {
  const mutate = useMutate()
  const [id, setId] = useState('')
  const [collection, setCollection] = useState('data/')
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const rid = id.trim()
    if (!isValidId(rid)) return setError('Use 1-128 letters, digits and . _ @ + - for the id')
    if (!isValidCollectionPath(collection.trim())) return setError(REPORT_TEXT.collection)
    try {
      await mutate.create(REPORTS, { title: rid, ...starterReport(collection.trim()) }, rid)
      notifySaved(`Report ${rid}`)
      onDone(rid)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  return (
    <form className="panel create-form" onSubmit={submit} aria-label="New report" noValidate>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="new-report-id">Report id</label>
          <input id="new-report-id" className="input" value={id} onChange={(e) => setId(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-report-collection">Collection</label>
          <input
            id="new-report-collection"
            className="input"
            value={collection}
            onChange={(e) => setCollection(e.target.value)}
          />
        </div>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary">
          Create report
        </button>
      </div>
    </form>
  )
}
