/**
 * Reports (/reports, issue 17): the saved reports of the local mirror, searchable and sortable, with
 * bulk delete and "New report" (an id and a collection). Built on the shared RecordList and
 * list-screen. Works offline: a new report goes through the outbox and opens at once.
 */

import { useCallback, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { isValidCollectionPath } from '../../../shared/ids'
import { REPORT_TEXT } from '../../../shared/texts'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { text } from '../../format/values'
import { REPORTS, reportHref, starterReport } from './report-data'
import '../../components/ui.css'
import '../../components/records.css'
import './reports.css'

type SortKey = 'title' | 'collection' | 'view'

export function ReportsScreen() {
  return (
    <ListScreen
      title="Reports"
      crumbs={[{ label: 'Forms', href: '/forms' }, 'Reports']}
      needed={`${REPORTS}:r`}
      className="reports-screen"
    >
      <ReportsList />
    </ListScreen>
  )
}

function ReportsList() {
  const list = useListScreen({ rows: useRows(REPORTS), href: reportHref })
  const searchText = useCallback((d: SyncDoc) => [d._id, text(d.title), text(d.collection)], [])
  const sortValue = useCallback(
    (d: SyncDoc, by: SortKey): string =>
      (by === 'title' ? text(d.title) || d._id : text(d[by])).toLowerCase(),
    [],
  )
  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 280, key: 'title', label: 'Report', nameOf: (d) => text(d.title) }),
    { key: 'collection', label: 'Collection', width: 220, sortable: true, render: (d) => text(d.collection) },
    { key: 'view', label: 'View', width: 100, sortable: true, render: (d) => text(d.view) || 'table' },
  ]
  return (
    <RecordList<SortKey>
      collection={REPORTS}
      rows={list.rows}
      title="Reports"
      noun={['report', 'reports']}
      href={reportHref}
      columns={columns}
      defaultSort="title"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by title, id or collection"
      renderCreate={() => <CreateReport onDone={list.open} />}
    />
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
