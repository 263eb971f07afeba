/**
 * Users (SPEC §2 /users): every account of the local mirror in a virtualized, searchable, sortable
 * table (picture, name, e-mail, groups, TOTP, last login), bulk selection and delete with the SPEC §8
 * confirmation and toasts, and a "New user" form. The second tab, /users?tab=tokens, holds the API
 * tokens (a tab rather than /users/tokens, which would shadow a user named "tokens").
 */
import { CloudOff } from 'lucide-react'
import { useCallback, useMemo } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT } from '../../../shared/texts'
import { RecordList } from '../../components/RecordList'
import type { Column } from '../../components/VirtualTable'
import { useRows } from '../../data/collection-rows'
import { formatDate, strings, text } from '../../format/values'
import { NoAccess } from '../../session/NoAccess'
import { useCan } from '../../session/use-can'
import { Avatar } from '../../shell/Avatar'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { CreateUser } from './CreateUser'
import { TokensPanel } from './TokensPanel'
import '../../components/ui.css'
import '../../components/records.css'

type SortKey = 'name' | 'email' | 'groups' | 'totp' | 'lastLogin'
const userHref = (id: string) => `/users/${encodeURIComponent(id)}`

export function UsersScreen() {
  const search = new URLSearchParams(useSearch())
  const tab = search.get('tab') === 'tokens' ? 'tokens' : 'users'
  const allowed = useCan()
  usePageTitle(tab === 'tokens' ? 'API tokens' : 'Users')
  useBreadcrumbs(tab === 'tokens' ? [{ label: 'Users', href: '/users' }, 'API tokens'] : ['Users'])
  if (!allowed('users:r')) return <NoAccess section="Users" needed="users:r" />
  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <nav className="tabs" aria-label="Users sections">
        <Link href="/users" className="tab" aria-current={tab === 'users' ? 'page' : undefined}>
          Users
        </Link>
        <Link href="/users?tab=tokens" className="tab" aria-current={tab === 'tokens' ? 'page' : undefined}>
          API tokens
        </Link>
      </nav>
      {tab === 'tokens' ? <TokensPanel /> : <UsersList />}
    </section>
  )
}

function UsersList() {
  const rows = useRows('users')
  const groupRows = useRows('groups')
  const [, navigate] = useLocation()

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
    if (by === 'name') return (text(d.name) || d._id).toLowerCase()
    if (by === 'groups') return strings(d.groups).join(',')
    if (by === 'totp') return d.totp ? '1' : '0'
    return text(d[by])
  }, [])

  const columns: Column<SyncDoc>[] = [
    {
      key: 'name',
      label: 'Name',
      width: 260,
      sortable: true,
      render: (d) => (
        <span className="user-cell">
          <Avatar user={d} size={28} />
          <span className="user-cell-text">
            <Link href={userHref(d._id)}>{text(d.name) || d._id}</Link>
            <span className="muted">{d._id}</span>
          </span>
          {rows?.pending.has(d._id) && (
            <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
              <CloudOff size={13} aria-hidden="true" />
              {SCREENS_TEXT.notSynced}
            </span>
          )}
        </span>
      ),
    },
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
      rows={rows}
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
            navigate(userHref(id))
          }}
        />
      )}
    />
  )
}
