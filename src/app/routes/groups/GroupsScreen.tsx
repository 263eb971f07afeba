/**
 * Groups (SPEC §2 /groups): the groups of the local mirror in a virtualized, searchable, sortable
 * table with member counts, bulk delete (SPEC §8) and a "New group" form. Creating works offline: the
 * group goes through the outbox and its page opens at once.
 */
import { CloudOff, Plus, Search, Trash2 } from 'lucide-react'
import { type FormEvent, useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { isValidId } from '../../../shared/ids'
import { SCREENS_TEXT } from '../../../shared/messages'
import { type Column, VirtualTable } from '../../components/VirtualTable'
import { useMutate } from '../../data/sync-context'
import { confirmDelete, notifyDeleted, notifySaved } from '../../feedback/notify'
import { toast } from '../../feedback/toast-store'
import { useShortcut } from '../../hooks/use-shortcut'
import { DeniedButton } from '../../session/ReadOnly'
import { useWriteRefusal } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { runBatches } from '../data/batches'
import { strings, text, useCan, useRows } from '../users/auth-data'
import { NoAccess } from '../users/NoAccess'
import '../../components/ui.css'
import '../users/auth.css'
import { countOfTotal } from '../../../shared/plural'

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
  const mutate = useMutate()
  const allowed = useCan()
  const refusal = useWriteRefusal()
  const [, navigate] = useLocation()
  const [query, setQuery] = useState('')
  const [sort, setSort] = useState<{ by: SortKey; reverse: boolean }>({ by: 'name', reverse: false })
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [creating, setCreating] = useState(false)

  const members = useMemo(() => {
    const m = new Map<string, number>()
    for (const u of users?.docs ?? []) for (const g of strings(u.groups)) m.set(g, (m.get(g) ?? 0) + 1)
    return m
  }, [users])

  const visible = useMemo(() => {
    const q = query.trim().toLowerCase()
    const docs = (rows?.docs ?? []).filter(
      (d) =>
        !q ||
        [d._id, text(d.name), text(d.description), ...strings(d.permissions)].some((v) =>
          v.toLowerCase().includes(q),
        ),
    )
    const key = (d: SyncDoc): string | number => {
      if (sort.by === 'members') return members.get(d._id) ?? 0
      if (sort.by === 'permissions') return strings(d.permissions).length
      if (sort.by === 'name') return (text(d.name) || d._id).toLowerCase()
      return text(d.description).toLowerCase()
    }
    docs.sort((a, b) => {
      const [x, y] = [key(a), key(b)]
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))
      return c || a._id.localeCompare(b._id)
    })
    if (sort.reverse) docs.reverse()
    return docs
  }, [rows, query, sort, members])

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

  const toggleAll = () =>
    setSelected(
      selected.size >= visible.length && visible.length > 0 ? new Set() : new Set(visible.map((d) => d._id)),
    )
  // Only what the session may delete, per document as the server checks it (issue 11).
  const deleteRefused = [...selected].map((id) => refusal('delete', 'groups', id)).find((r) => r) ?? null
  const deleteSelected = async () => {
    const ids = [...selected]
    if (!ids.length) return
    if (deleteRefused) {
      toast.warning(deleteRefused.message)
      return
    }
    if (!(await confirmDelete(ids.length, ids.length === 1 ? 'group' : 'groups'))) return
    const result = await runBatches(
      ids,
      (id) => mutate.delete('groups', id),
      () => {},
    )
    notifyDeleted(result.done, ids.length)
    if (result.failed && result.firstError instanceof Error) toast.error(result.firstError.message)
    setSelected(new Set())
  }
  useShortcut('selectAll', toggleAll)
  useShortcut('delete', selected.size ? () => void deleteSelected() : null)

  return (
    <section className="screen screen-table auth-screen" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">Groups</h1>
          <p className="muted" aria-live="polite">
            {rows === undefined ? 'Loading…' : countOfTotal(visible.length, rows.docs.length, 'group')}
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
          {allowed('groups:c') && (
            <button
              type="button"
              className="button button-primary"
              aria-expanded={creating}
              onClick={() => setCreating((v) => !v)}
            >
              <Plus size={16} aria-hidden="true" /> New group
            </button>
          )}
        </div>
      </header>
      {creating && <CreateGroup onDone={(id) => navigate(groupHref(id))} />}
      <div className="search-row">
        <Search size={16} aria-hidden="true" />
        <input
          className="input"
          type="search"
          aria-label="Search groups"
          placeholder="Search by name, id, description or permission"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <VirtualTable
        label="Groups"
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
        onOpen={(d) => navigate(groupHref(d._id))}
        rowClass={(d) => (rows?.pending.has(d._id) ? 'is-pending' : undefined)}
        rowHeight={48}
        empty={rows === undefined ? 'Loading…' : query ? 'No groups match the search.' : 'No groups yet.'}
      />
    </section>
  )
}

function CreateGroup({ onDone }: { onDone: (id: string) => void }) {
  const mutate = useMutate()
  const [id, setId] = useState('')
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const gid = id.trim()
    if (!isValidId(gid)) return setError('Use 1-128 letters, digits and . _ @ + - for the id')
    try {
      await mutate.create('groups', { name: name.trim() || gid, description: '', permissions: [] }, gid)
      notifySaved(`Group ${gid}`)
      onDone(gid)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }
  return (
    <form className="panel create-form" onSubmit={submit} aria-label="New group" noValidate>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="new-group-id">Group id</label>
          <input id="new-group-id" className="input" value={id} onChange={(e) => setId(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-group-name">Name</label>
          <input
            id="new-group-name"
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button button-primary">
          Create group
        </button>
      </div>
    </form>
  )
}
