/**
 * Groups (SPEC §2 /groups): the groups of the local mirror in a virtualized, searchable, sortable
 * table with member counts, bulk delete (SPEC §8) and a "New group" form (RecordList and list-screen).
 * Creating works offline: the group goes through the outbox and its page opens at once.
 */

import { useCallback, useMemo, useState } from 'react'
import type { SyncDoc } from '../../../db/types'
import { CreateRecordForm, useCreateRecord } from '../../components/CreateRecordForm'
import { byName, ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { strings, text } from '../../format/values'
import '../../components/ui.css'
import '../../components/records.css'

type SortKey = 'name' | 'description' | 'members' | 'permissions'
const groupHref = (id: string) => `/groups/${encodeURIComponent(id)}`

export function GroupsScreen() {
  return (
    <ListScreen title="Groups" needed="groups:r">
      <GroupsList />
    </ListScreen>
  )
}

function GroupsList() {
  const list = useListScreen({ rows: useRows('groups'), href: groupHref })
  const users = useRows('users')

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
      if (by === 'name') return byName(d)
      return text(d.description).toLowerCase()
    },
    [members],
  )

  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 240 }),
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
    <RecordList<SortKey>
      collection="groups"
      rows={list.rows}
      title="Groups"
      noun={['group', 'groups']}
      href={groupHref}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name, id, description or permission"
      renderCreate={() => <CreateGroup onDone={list.open} />}
    />
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
