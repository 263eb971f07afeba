/**
 * Users (SPEC §2 /users): every account of the local mirror in a virtualized, searchable, sortable
 * table (picture, name, e-mail, groups, TOTP, last login), bulk selection and delete with the SPEC §8
 * confirmation and toasts, and a "New user" form. The second tab, /users?tab=tokens, holds the API
 * tokens (a tab rather than /users/tokens, which would shadow a user named "tokens").
 */
import { CloudOff, Plus, Search, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { SCREENS_TEXT } from '../../../shared/messages'
import { type Column, VirtualTable } from '../../components/VirtualTable'
import { useMutate } from '../../data/sync-context'
import { confirmDelete, notifyDeleted } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useShortcut } from '../../hooks/use-shortcut'
import { DeniedButton } from '../../session/ReadOnly'
import { useWriteRefusal } from '../../session/use-can'
import { Avatar } from '../../shell/Avatar'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { runBatches } from '../data/batches'
import { TokensPanel } from '../tokens/TokensPanel'
import { formatDate, strings, text, useCan, useRows } from './auth-data'
import { CreateUser } from './CreateUser'
import { NoAccess } from './NoAccess'
import '../../components/ui.css'
import './auth.css'
import { countOfTotal } from '../../../shared/plural'

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
  const mutate = useMutate()
  const allowed = useCan()
  const refusal = useWriteRefusal()
  const [, navigate] = useLocation()
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<{ by: SortKey; reverse: boolean }>({ by: 'name', reverse: false })
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [creating, setCreating] = useState(false)

  const groupName = useMemo(() => {
    const m = new Map<string, string>()
    for (const g of groupRows?.docs ?? []) m.set(g._id, text(g.name) || g._id)
    return m
  }, [groupRows])

  const visible = useMemo(() => {
    const q = query.trim().toLowerCase()
    const docs = (rows?.docs ?? []).filter(
      (d) =>
        !q ||
        [d._id, text(d.name), text(d.email), ...strings(d.groups).map((g) => groupName.get(g) ?? g)].some(
          (v) => v.toLowerCase().includes(q),
        ),
    )
    const key = (d: SyncDoc): string => {
      if (sort.by === 'name') return (text(d.name) || d._id).toLowerCase()
      if (sort.by === 'groups') return strings(d.groups).join(',')
      if (sort.by === 'totp') return d.totp ? '1' : '0'
      return text(d[sort.by])
    }
    docs.sort((a, b) => key(a).localeCompare(key(b)) || a._id.localeCompare(b._id))
    if (sort.reverse) docs.reverse()
    return docs
  }, [rows, query, sort, groupName])

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

  const toggleAll = () =>
    setSelected(
      selected.size >= visible.length && visible.length > 0 ? new Set() : new Set(visible.map((d) => d._id)),
    )
  // Only what the session may delete, per document as the server checks it (issue 11).
  const deleteRefused = [...selected].map((id) => refusal('delete', 'users', id)).find((r) => r) ?? null
  const deleteSelected = async () => {
    const ids = [...selected]
    if (!ids.length) return
    if (deleteRefused) {
      toast.warning(deleteRefused.message)
      return
    }
    if (!(await confirmDelete(ids.length, ids.length === 1 ? 'user' : 'users'))) return
    const result = await runBatches(
      ids,
      (id) => mutate.delete('users', id),
      () => {},
    )
    notifyDeleted(result.done, ids.length)
    if (result.failed && result.firstError instanceof Error) toast.error(result.firstError.message)
    setSelected(new Set())
  }
  useShortcut('selectAll', toggleAll)
  useShortcut('delete', selected.size ? () => void deleteSelected() : null)

  const groupOptions = (groupRows?.docs ?? []).map((g) => ({ id: g._id, name: text(g.name) || g._id }))
  return (
    <>
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">Users</h1>
          <p className="muted" aria-live="polite">
            {rows === undefined ? 'Loading…' : countOfTotal(visible.length, rows.docs.length, 'user')}
          </p>
        </div>
        <div className="actions">
          {selected.size > 0 &&
            (deleteRefused ? (
              <DeniedButton className="button button-danger" reason={deleteRefused.message}>
                <Trash2 size={16} aria-hidden="true" /> Delete {selected.size}
              </DeniedButton>
            ) : (
              <button type="button" className="button button-danger" onClick={() => void deleteSelected()}>
                <Trash2 size={16} aria-hidden="true" /> Delete {selected.size}
              </button>
            ))}
          {allowed('users:c') && (
            <button
              type="button"
              className="button button-primary"
              aria-expanded={creating}
              onClick={() => setCreating((v) => !v)}
            >
              <Plus size={16} aria-hidden="true" /> New user
            </button>
          )}
        </div>
      </header>
      {creating && (
        <CreateUser
          groups={groupOptions}
          onDone={(id) => {
            setCreating(false)
            navigate(userHref(id))
          }}
        />
      )}
      <div className="search-row">
        <Search size={16} aria-hidden="true" />
        <input
          className="input"
          type="search"
          aria-label="Search users"
          placeholder="Search by name, username, e-mail or group"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <VirtualTable
        label="Users"
        rowCount={visible.length}
        rowAt={(i) => visible[i]}
        rowKey={(d) => d._id}
        columns={columns}
        sort={sort}
        onSort={(key) =>
          setSort((s) =>
            s.by === key ? { by: s.by, reverse: !s.reverse } : { by: key as SortKey, reverse: false },
          )
        }
        selected={selected}
        onToggle={(id) => {
          const next = new Set(selected)
          if (next.has(id)) next.delete(id)
          else next.add(id)
          setSelected(next)
        }}
        onToggleAll={toggleAll}
        onOpen={(d) => navigate(userHref(d._id))}
        rowClass={(d) => (rows?.pending.has(d._id) ? 'is-pending' : undefined)}
        rowHeight={48}
        empty={rows === undefined ? 'Loading…' : query ? 'No users match the search.' : 'No users yet.'}
      />
    </>
  )
}
