/**
 * Templates (/templates, issue 13): the templates of the local mirror by kind, searchable and
 * sortable, with bulk delete (SPEC §8) and "New template" (pick a kind). Built on the shared RecordList;
 * this file brings only the columns, the kind filter and the create form. Works offline: a new
 * template goes through the outbox and its editor opens at once.
 */

import { CloudOff } from 'lucide-react'
import { useCallback, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT } from '../../../shared/messages'
import { TEMPLATE_KINDS, type TemplateKind } from '../../../shared/templates'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { text, useCan } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import { kindOf, TEMPLATES, useTemplates } from './template-data'
import { starterOf } from './template-form'
import '../../components/ui.css'
import '../users/auth.css'
import './templates.css'

type SortKey = 'name' | 'kind' | 'description'
export const templateHref = (id: string) => `/templates/${encodeURIComponent(id)}`

export function TemplatesScreen() {
  usePageTitle('Templates')
  useBreadcrumbs(['Templates'])
  const allowed = useCan()
  if (!allowed('templates:r')) return <NoAccess section="Templates" needed="templates:r" />
  return <TemplatesList />
}

function TemplatesList() {
  const all = useTemplates()
  const [, navigate] = useLocation()
  const [kind, setKind] = useState<'' | TemplateKind>('')
  const rows = useMemo(
    () => (all && kind ? { ...all, docs: all.docs.filter((d) => d.kind === kind) } : all),
    [all, kind],
  )
  const searchText = useCallback(
    (d: SyncDoc) => [d._id, text(d.name), text(d.description), kindOf(d), text(d.subject), text(d.title)],
    [],
  )
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string => {
    if (by === 'kind') return kindOf(d)
    if (by === 'name') return (text(d.name) || d._id).toLowerCase()
    return text(d.description).toLowerCase()
  }, [])

  const columns: Column<SyncDoc>[] = [
    {
      key: 'name',
      label: 'Name',
      width: 260,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <Link href={templateHref(d._id)}>{text(d.name) || d._id}</Link>
          <span className="muted">
            {d._id}
            {all?.pending.has(d._id) && (
              <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
                <CloudOff size={13} aria-hidden="true" />
                {SCREENS_TEXT.notSynced}
              </span>
            )}
          </span>
        </span>
      ),
    },
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
    <section className="screen screen-table auth-screen templates-screen" aria-labelledby="page-heading">
      <RecordList<SortKey>
        collection={TEMPLATES}
        rows={rows}
        title="Templates"
        noun={['template', 'templates']}
        href={templateHref}
        columns={columns}
        defaultSort="name"
        searchText={searchText}
        sortValue={sortValue}
        searchPlaceholder="Search by name, id, kind or subject"
        filters={
          <label className="kind-filter">
            <span>Kind</span>
            <select
              aria-label="Filter by kind"
              className="input"
              value={kind}
              onChange={(e) => setKind(e.target.value as '' | TemplateKind)}
            >
              <option value="">All kinds</option>
              {TEMPLATE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
        }
        renderCreate={() => (
          <CreateTemplate initialKind={kind || 'email'} onDone={(id) => navigate(templateHref(id))} />
        )}
      />
    </section>
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
