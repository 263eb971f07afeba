/**
 * Templates (/templates, issue 13): the templates of the local mirror by kind, searchable and
 * sortable, with bulk delete (SPEC §8) and "New template" (pick a kind). Built on the shared RecordList
 * and list-screen; this file brings only the columns, the kind filter and the create form. Works
 * offline: a new template goes through the outbox and its editor opens at once.
 */

import { useCallback, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { TEMPLATE_KINDS, type TemplateKind } from '../../../shared/templates'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { byName, type ListFilter, ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { text } from '../../format/values'
import { kindOf, TEMPLATES, useTemplates } from './template-data'
import { starterOf } from './template-form'
import '../../components/ui.css'
import '../../components/records.css'
import './templates.css'

type SortKey = 'name' | 'kind' | 'description'
export const templateHref = (id: string) => `/templates/${encodeURIComponent(id)}`

const KIND_FILTER: ListFilter<TemplateKind> = {
  label: 'Kind',
  name: 'Filter by kind',
  all: 'All kinds',
  options: TEMPLATE_KINDS,
  test: (d, kind) => d.kind === kind,
}

export function TemplatesScreen() {
  return (
    <ListScreen title="Templates" needed="templates:r" className="templates-screen">
      <TemplatesList />
    </ListScreen>
  )
}

function TemplatesList() {
  const list = useListScreen({ rows: useTemplates(), href: templateHref, filter: KIND_FILTER })
  const searchText = useCallback(
    (d: SyncDoc) => [d._id, text(d.name), text(d.description), kindOf(d), text(d.subject), text(d.title)],
    [],
  )
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string => {
    if (by === 'kind') return kindOf(d)
    if (by === 'name') return byName(d)
    return text(d.description).toLowerCase()
  }, [])

  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 260 }),
    {
      key: 'kind',
      label: 'Kind',
      width: 110,
      sortable: true,
      render: (d) => <span className={`kind-badge kind-${kindOf(d)}`}>{kindOf(d)}</span>,
    },
    {
      key: 'description',
      label: 'Description',
      width: 320,
      sortable: true,
      render: (d) => text(d.description) || text(d.subject) || text(d.title) || '—',
    },
  ]

  return (
    <RecordList<SortKey>
      collection={TEMPLATES}
      rows={list.rows}
      title="Templates"
      noun={['template', 'templates']}
      href={templateHref}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name, id, kind or subject"
      filters={list.filters}
      renderCreate={() => <CreateTemplate initialKind={list.filterValue || 'email'} onDone={list.open} />}
    />
  )
}

function CreateTemplate({
  initialKind,
  onDone,
}: {
  initialKind: TemplateKind
  onDone: (id: string) => void
}) {
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [kind, setKind] = useState<TemplateKind>(initialKind)
  const { error, submit } = useCreateRecord(TEMPLATES, 'Template', onDone)
  return (
    <CreateRecordForm
      label="New template"
      submitLabel="Create template"
      error={error}
      onSubmit={() => submit(id, (tid) => starterOf(kind, name.trim() || tid))}
      fields={[
        {
          id: 'new-template-kind',
          label: 'Kind',
          value: kind,
          onChange: (k) => setKind(k as TemplateKind),
          options: TEMPLATE_KINDS,
        },
        { id: 'new-template-id', label: 'Template id', value: id, onChange: setId },
        { id: 'new-template-name', label: 'Name', value: name, onChange: setName },
      ]}
    />
  )
}
