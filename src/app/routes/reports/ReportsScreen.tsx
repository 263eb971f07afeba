/**
 * Reports (/reports, issue 17): the saved reports of the local mirror, searchable and sortable, with
 * bulk delete and "New report" (an id and a collection). Built on the shared RecordList. Works offline:
 * a new report goes through the outbox and opens at once.
 */

import { useCallback, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { isValidCollectionPath } from '../../../shared/ids'
import { REPORT_TEXT } from '../../../shared/messages'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
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
  const [id, setId] = useState('')
  const [collection, setCollection] = useState('data/')
  const { error, submit } = useCreateRecord(REPORTS, 'Report', onDone)
  const build = (rid: string) =>
    isValidCollectionPath(collection.trim())
      ? { title: rid, ...starterReport(collection.trim()) }
      : REPORT_TEXT.collection
  return (
    <CreateRecordForm
      label="New report"
      submitLabel="Create report"
      error={error}
      onSubmit={() => submit(id, build)}
      fields={[
        { id: 'new-report-id', label: 'Report id', value: id, onChange: setId },
        { id: 'new-report-collection', label: 'Collection', value: collection, onChange: setCollection },
      ]}
    />
  )
}
