/**
 * Groups (SPEC §2 /groups): the groups of the local mirror in a virtualized, searchable, sortable
 * table with member counts, bulk delete (SPEC §8) and a "New group" form. Creating works offline: the
 * group goes through the outbox and its page opens at once.
 */

import { CloudOff } from 'lucide-react'
import { useCallback, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT } from '../../../shared/messages'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { strings, text, useCan, useRows } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import '../../components/ui.css'
import '../users/auth.css'

type SortKey = 'name' | 'description' | 'members' | 'permissions'
const groupHref = (id: string) => `/groups/${encodeURIComponent(id)}`

export function GroupsScreen() {
  usePageTitle('Groups')
  useBreadcrumbs(['Groups'])
  const allowed = useCan()
  if (!allowed('groups:r')) return <NoAccess section="Groups" needed="groups:r" />
  return <GroupsList />
}

function GroupsList() {
  const rows = useRows('groups')
  const users = useRows('users')
  const [, navigate] = useLocation()

  const members = useMemo(() => {
    const m = new Map<string, number>()
    for (const u of users?.docs ?? []) for (const g of strings(u.groups)) m.set(g, (m.get(g) ?? 0) + 1)
    return m
  }, [users])

  const searchText = useCallback(
    (d: SyncDoc) => [d._id, text(d.name), text(d.description), ...strings(d.permissions)],
    [],
  )
  const sortValue = useCallback(
    (d: SyncDoc, by: SortKey): string | number => {
      if (by === 'members') return members.get(d._id) ?? 0
      if (by === 'permissions') return strings(d.permissions).length
      if (by === 'name') return (text(d.name) || d._id).toLowerCase()
      return text(d.description).toLowerCase()
    },
    [members],
  )

  const columns: Column<SyncDoc>[] = [
    {
      key: 'name',
      label: 'Name',
      width: 240,
      sortable: true,
      render: (d) => (
        <span className="user-cell-text">
          <Link href={groupHref(d._id)}>{text(d.name) || d._id}</Link>
          <span className="muted">
            {d._id}
            {rows?.pending.has(d._id) && (
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
      key: 'description',
      label: 'Description',
      width: 280,
      sortable: true,
      render: (d) => text(d.description) || '—',
    },
    { key: 'members', label: 'Members', width: 100, sortable: true, render: (d) => members.get(d._id) ?? 0 },
    {
      key: 'permissions',
      label: 'Permissions',
      width: 280,
      sortable: true,
      render: (d) => <span className="mono">{strings(d.permissions).join(', ') || '—'}</span>,
    },
  ]

  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <RecordList<SortKey>
        collection="groups"
        rows={rows}
        title="Groups"
        noun={['group', 'groups']}
        href={groupHref}
        columns={columns}
        defaultSort="name"
        searchText={searchText}
        sortValue={sortValue}
        searchPlaceholder="Search by name, id, description or permission"
        renderCreate={() => <CreateGroup onDone={(id) => navigate(groupHref(id))} />}
      />
    </section>
  )
}

function CreateGroup({ onDone }: { onDone: (id: string) => void }) {
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const { error, submit } = useCreateRecord('groups', 'Group', onDone)
  return (
    <CreateRecordForm
      label="New group"
      submitLabel="Create group"
      error={error}
      onSubmit={() => submit(id, (gid) => ({ name: name.trim() || gid, description: '', permissions: [] }))}
      fields={[
        { id: 'new-group-id', label: 'Group id', value: id, onChange: setId },
        { id: 'new-group-name', label: 'Name', value: name, onChange: setName },
      ]}
    />
  )
}
