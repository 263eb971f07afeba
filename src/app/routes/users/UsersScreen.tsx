/**
 * Users (SPEC §2 /users): every account of the local mirror in a virtualized, searchable, sortable
 * table (picture, name, e-mail, groups, TOTP, last login), bulk selection and delete with the SPEC §8
 * confirmation and toasts, and a "New user" form; built on the shared RecordList and list-screen. The
 * second tab, /users?tab=tokens, holds the API tokens (a tab rather than /users/tokens, which would
 * shadow a user named "tokens"); both tabs need users:r and are refused as "Users".
 */
import { useCallback, useMemo } from 'react'
import { Link, useSearch } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { byName, ListScreen, useListScreen } from '../../components/list-screen'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { formatDate, strings, text } from '../../format/values'
import { Avatar } from '../../shell/Avatar'
import { CreateUser } from './CreateUser'
import { TokensPanel } from './TokensPanel'
import '../../components/ui.css'
import '../../components/records.css'

type SortKey = 'name' | 'email' | 'groups' | 'totp' | 'lastLogin'
const userHref = (id: string) => `/users/${encodeURIComponent(id)}`

export function UsersScreen() {
  const search = new URLSearchParams(useSearch())
  const tokens = search.get('tab') === 'tokens'
  return (
    <ListScreen
      title={tokens ? 'API tokens' : 'Users'}
      crumbs={tokens ? [{ label: 'Users', href: '/users' }, 'API tokens'] : undefined}
      section="Users"
      needed="users:r"
    >
      <nav className="tabs" aria-label="Users sections">
        <Link href="/users" className="tab" aria-current={tokens ? undefined : 'page'}>
          Users
        </Link>
        <Link href="/users?tab=tokens" className="tab" aria-current={tokens ? 'page' : undefined}>
          API tokens
        </Link>
      </nav>
      {tokens ? <TokensPanel /> : <UsersList />}
    </ListScreen>
  )
}

function UsersList() {
  const list = useListScreen({ rows: useRows('users'), href: userHref })
  const groupRows = useRows('groups')

  const groupName = useMemo(() => {
    const m = new Map<string, string>()
    for (const g of groupRows?.docs ?? []) m.set(g._id, text(g.name) || g._id)
    return m
  }, [groupRows])

  const searchText = useCallback(
    (d: SyncDoc) => [
      d._id,
      text(d.name),
      text(d.email),
      ...strings(d.groups).map((g) => groupName.get(g) ?? g),
    ],
    [groupName],
  )
  const sortValue = useCallback((d: SyncDoc, by: SortKey): string => {
    if (by === 'name') return byName(d)
    if (by === 'groups') return strings(d.groups).join(',')
    if (by === 'totp') return d.totp ? '1' : '0'
    return text(d[by])
  }, [])

  const columns: Column<SyncDoc>[] = [
    list.nameColumn({ width: 260, leading: (d) => <Avatar user={d} size={28} /> }),
    { key: 'email', label: 'E-mail', width: 230, sortable: true, render: (d) => text(d.email) || '—' },
    {
      key: 'groups',
      label: 'Groups',
      width: 200,
      sortable: true,
      render: (d) =>
        strings(d.groups)
          .map((g) => groupName.get(g) ?? g)
          .join(', ') || '—',
    },
    {
      key: 'totp',
      label: 'TOTP',
      width: 80,
      sortable: true,
      render: (d) => <span className={d.totp ? 'pill pill-on' : 'pill'}>{d.totp ? 'On' : 'Off'}</span>,
    },
    {
      key: 'lastLogin',
      label: 'Last login',
      width: 190,
      sortable: true,
      render: (d) => formatDate(d.lastLogin),
    },
  ]

  const groupOptions = (groupRows?.docs ?? []).map((g) => ({ id: g._id, name: text(g.name) || g._id }))
  return (
    <RecordList<SortKey>
      collection="users"
      rows={list.rows}
      title="Users"
      noun={['user', 'users']}
      href={userHref}
      columns={columns}
      defaultSort="name"
      searchText={searchText}
      sortValue={sortValue}
      searchPlaceholder="Search by name, username, e-mail or group"
      renderCreate={(close) => (
        <CreateUser
          groups={groupOptions}
          onDone={(id) => {
            close()
            list.open(id)
          }}
        />
      )}
    />
  )
}
