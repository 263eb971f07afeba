/**
 * Forms (/forms, issue 17): the forms of the local mirror, searchable and sortable, with bulk delete
 * and "New form" (path, title, target collection). Built on the shared RecordList; works offline: a
 * new form goes through the outbox and its editor opens at once. The screen's frame is list-screen.tsx.
 */

import { ChartColumn } from 'lucide-react'
import { useCallback, useState } from 'react'
import { Link } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { FORMS, formNeeds, isFormTarget } from '../../../shared/forms'
import { DELEGATION_TEXT, FORMS_TEXT } from '../../../shared/texts'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { text } from '../../format/values'
import { useCan } from '../../session/use-can'
import { docOf, starterForm } from './form-edit'
import '../../components/ui.css'
import '../../components/records.css'
import './forms.css'

type SortKey = 'title' | 'target' | 'fill'
export const formHref = (id: string) => `/forms/${encodeURIComponent(id)}`

const fillOf = (d: SyncDoc) => (d.fill === 'link' ? 'Anyone with the link' : `Group ${text(d.group)}`)

export function FormsScreen() {
  return (
    <ListScreen title="Forms" needed={`${FORMS}:r`} className="forms-screen">
      <FormsList />
    </ListScreen>
  )
}

function FormsList() {
  const list = useListScreen({ rows: useRows(FORMS), href: formHref })
  const searchText = useCallback(
    (d: SyncDoc) => [d._id, text(d.title), text(d.target), text(d.description)],
    [],
  )
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string => {
    if (by === 'target') return text(d.target)
    if (by === 'fill') return fillOf(d)
    return (text(d.title) || d._id).toLowerCase()
  }, [])

  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 280, key: 'title', label: 'Form', nameOf: (d) => text(d.title) }),
    {
      key: 'target',
      label: 'Answers go to',
      width: 200,
      sortable: true,
      render: (d) => text(d.target) || '—',
    },
    { key: 'fill', label: 'Who may fill', width: 220, sortable: true, render: fillOf },
  ]

  return (
    <RecordList<SortKey>
      collection={FORMS}
      rows={list.rows}
      title="Forms"
      noun={['form', 'forms']}
      href={formHref}
      columns={columns}
      defaultSort="title"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by title, path or collection"
      renderCreate={() => <CreateForm onDone={list.open} />}
      filters={
        <Link href="/reports" className="button button-quiet">
          <ChartColumn size={16} aria-hidden="true" /> Reports
        </Link>
      }
    />
  )
}

function CreateForm({ onDone }: { onDone: (id: string) => void }) {
  const [id, setId] = useState('')
  const [title, setTitle] = useState('')
  const [target, setTarget] = useState('')
  const { error, submit } = useCreateRecord(FORMS, 'Form', onDone, 'path')
  const allowed = useCan()
  const build = () => {
    const collection = target.trim().startsWith('data/') ? target.trim() : `data/${target.trim()}`
    if (!title.trim()) return FORMS_TEXT.titleMissing
    if (!isFormTarget(collection)) return FORMS_TEXT.targetInvalid
    const body = docOf(starterForm(title.trim(), collection))
    // The server's rule: the creator must be able to create what the form will (formNeeds).
    const lacking = formNeeds(null, body).find((n) => !allowed(n.permission))
    return lacking ? DELEGATION_TEXT.needs(lacking.what, lacking.permission) : body
  }
  return (
    <CreateRecordForm
      label="New form"
      submitLabel="Create form"
      error={error}
      onSubmit={() => submit(id, build)}
      fields={[
        { id: 'new-form-id', label: 'Path', value: id, onChange: setId },
        { id: 'new-form-title', label: 'Title', value: title, onChange: setTitle },
        {
          id: 'new-form-target',
          label: 'Answers go to collection',
          value: target,
          onChange: setTarget,
          placeholder: 'data/inspections',
        },
      ]}
    />
  )
}
