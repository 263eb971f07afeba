/**
 * One collection of the Database (SPEC §2 /data/{collection}, "Database editor"): a virtualized table
 * of the local mirror read a window at a time (doc-source.ts), with sort, search, filter, remembered
 * columns, bulk selection and delete (SPEC §8 texts, Ctrl/Cmd+A and Delete), import/export and the
 * raw query box. Everything but the raw query works offline; rows written here but not yet confirmed
 * by the server carry a "not synced yet" marker.
 */
import { Braces, Plus, TerminalSquare } from 'lucide-react'
import { useCallback, useMemo, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import { countOf, countOfTotal } from '../../../shared/plural'
import { SCHEMA_EDITOR_TEXT, SCREENS_TEXT } from '../../../shared/texts'
import { BulkDeleteButton, useBulkDelete } from '../../components/bulk-delete'
import { preview } from '../../components/format'
import { type Column, VirtualTable } from '../../components/VirtualTable'
import { useSyncDb } from '../../data/sync-context'
import { useShortcut } from '../../hooks/use-shortcut'
import { NoAccess } from '../../session/NoAccess'
import { DeniedButton, ReadOnlyNote } from '../../session/ReadOnly'
import { useMayUnder, useWriteRefusal } from '../../session/use-can'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'
import { SyncMarker, useConflictIds } from '../../sync-ui/SyncMarker'
import { columnWidth, discoverFields, loadColumns, saveColumns, visibleColumns } from './columns'
import { type DocFilter, docMatcher, EMPTY_FILTER, fieldValue, filterKey } from './doc-filter'
import { type SortSpec, useDocOrder, useDocWindow, usePendingIds, useSeed } from './doc-source'
import { FilterBar } from './FilterBar'
import { RawQuery } from './RawQuery'
import { schemaHref } from './schema/href'
import { TransferButtons } from './TransferButtons'
import { useTableOffset } from './use-table-offset'

const docHref = (name: string, id: string) => `/data/${encodeURIComponent(name)}/${encodeURIComponent(id)}`

/** The table's onRange, calling `set` with the pair. */
const rangeSetter = (set: (range: [number, number]) => void) => (a: number, b: number) => set([a, b])

export function CollectionScreen({ name }: { name: string }) {
  const collection = `data/${name}`
  usePageTitle(name)
  useBreadcrumbs([{ label: 'Database', href: '/data' }, name])
  const db = useSyncDb()
  const [, navigate] = useLocation()
  const [sort, setSort] = useState<SortSpec>({ by: '_id', reverse: false })
  const [filter, setFilter] = useState<DocFilter>(EMPTY_FILTER)
  const [remembered, setRemembered] = useState(() => loadColumns(collection))
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [anchor, setAnchor] = useState<number | null>(null)
  const [range, setRange] = useState<[number, number]>([0, 40])
  const [showRaw, setShowRaw] = useState(false)

  const fKey = filterKey(filter)
  // biome-ignore lint/correctness/useExhaustiveDependencies: fKey stands for filter
  const matcher = useMemo(() => docMatcher(filter), [fKey])
  // An offline start's first rows, read before Dexie loaded (data/first-screen.ts): the first commit
  // shows them; the live queries below take over at once, and then the seed lets them go. The default
  // order only, as read.
  const seed = useSeed(db?.name, collection)
  const order = useDocOrder(db, collection, sort, matcher, fKey, seed)
  const window_ = useDocWindow(db, collection, sort, order, range[0], range[1], seed)
  const pending = usePendingIds(db, collection, window_?.docs)
  const conflicts = useConflictIds(db, collection)
  const total = order?.total ?? 0
  // What the session may write here (src/app/session/use-can.ts); the mutation API refuses the rest.
  const mayRead = useMayUnder(collection, 'r')
  const refusal = useWriteRefusal()
  const createRefused = refusal('create', collection)
  const bulk = useBulkDelete(collection, selected, () => setSelected(new Set()), ['document', 'documents'])

  const rowAt = useCallback(
    (i: number): SyncDoc | undefined => (window_ ? window_.docs[i - window_.start] : undefined),
    [window_],
  )
  // Made outside this render: a callback made once here shared the first render's scope and so kept
  // its window of rows (and everything else it held) alive for as long as the screen was open.
  const [onRange] = useState(() => rangeSetter(setRange))

  // A search that finds nothing keeps the columns the table had (issue 11: it collapsed to `_id`).
  const shownFields = useRef<{ collection: string; fields: string[] } | null>(null)
  const fields = useMemo(() => {
    const docs = window_?.docs ?? []
    const last = shownFields.current
    if (!docs.length && last?.collection === collection) return last.fields
    const found = discoverFields(docs)
    shownFields.current = { collection, fields: found }
    return found
  }, [window_, collection])
  const columns = visibleColumns(fields, remembered)
  const tableColumns: Column<SyncDoc>[] = columns.map((key) => ({
    key,
    label: key,
    width: columnWidth(key),
    sortable: true,
    render: (doc) =>
      key === '_id' ? (
        <span className="id-cell">
          <Link href={docHref(name, doc._id)}>{doc._id}</Link>
          {pending.has(doc._id) && <SyncMarker compact conflict={conflicts.get(doc._id)} />}
        </span>
      ) : (
        <span className={`cell-${typeof fieldValue(doc, key)}`}>{preview(fieldValue(doc, key))}</span>
      ),
  }))

  const allIds = async (): Promise<string[]> => {
    if (!order || !db) return []
    if (order.kind === 'ids') return order.ids
    const keys = await db.docs.where('collection').equals(collection).primaryKeys()
    return keys.map((k) => (k as unknown as [string, string])[1])
  }
  const toggleAll = async () => {
    if (selected.size >= total && total > 0) setSelected(new Set())
    else setSelected(new Set(await allIds()))
  }
  const toggle = async (id: string, index: number, extend: boolean) => {
    const next = new Set(selected)
    if (extend && anchor !== null) {
      const [a, b] = anchor < index ? [anchor, index] : [index, anchor]
      const ids = order?.kind === 'ids' ? order.ids : await allIdsInOrder(a, b)
      for (const x of order?.kind === 'ids' ? ids.slice(a, b + 1) : ids) next.add(x)
    } else if (next.has(id)) next.delete(id)
    else next.add(id)
    setAnchor(index)
    setSelected(next)
  }
  const allIdsInOrder = async (a: number, b: number) => {
    const docs: string[] = []
    for (let i = a; i <= b; i++) {
      const d = rowAt(i)
      if (d) docs.push(d._id)
    }
    return docs
  }

  useShortcut('selectAll', () => void toggleAll())
  useShortcut('delete', selected.size ? () => void bulk.run() : null)

  const onSort = (key: string) =>
    setSort((s) => (s.by === key ? { by: key, reverse: !s.reverse } : { by: key, reverse: false }))
  const onColumns = (next: string[]) => {
    setRemembered(next)
    saveColumns(collection, next)
  }

  // Where the table starts, for the next offline start's first frame (first-frame.ts).
  const sectionRef = useRef<HTMLElement>(null)
  useTableOffset(sectionRef, collection, order !== undefined)

  if (!mayRead && total === 0) return <NoAccess section={name} needed={`${collection}:r`} />

  return (
    <section ref={sectionRef} className="screen screen-table" aria-labelledby="page-heading">
      <header className="screen-head screen-head-row">
        <div>
          <h1 id="page-heading">{name}</h1>
          <p className="muted" aria-live="polite">
            {order === undefined
              ? 'Loading…'
              : matcher
                ? countOfTotal(total, order.all, 'document')
                : countOf(total, 'document')}
            {pending.size > 0 && ` · ${pending.size} not synced yet`}
          </p>
        </div>
        <div className="actions">
          <BulkDeleteButton count={selected.size} bulk={bulk} />
          <button
            type="button"
            className="button button-quiet"
            aria-expanded={showRaw}
            onClick={() => setShowRaw((v) => !v)}
          >
            <TerminalSquare size={16} aria-hidden="true" /> <span className="button-label">Raw query</span>
          </button>
          <Link href={schemaHref(name)} className="button button-quiet">
            <Braces size={16} aria-hidden="true" />{' '}
            <span className="button-label">{SCHEMA_EDITOR_TEXT.tab}</span>
          </Link>
          <TransferButtons
            name={name}
            importRefused={createRefused?.message}
            matcher={matcher}
            matching={total}
            all={order?.all}
            selected={selected}
          />
          {createRefused ? (
            <DeniedButton className="button button-primary" reason={createRefused.message}>
              <Plus size={16} aria-hidden="true" /> New document
            </DeniedButton>
          ) : (
            <Link href={docHref(name, 'new')} className="button button-primary">
              <Plus size={16} aria-hidden="true" /> New document
            </Link>
          )}
        </div>
      </header>
      {createRefused && <ReadOnlyNote needed={createRefused.needed} action="add or import documents" />}
      {showRaw && <RawQuery collection={name} />}
      <FilterBar
        filter={filter}
        onFilter={setFilter}
        fields={fields}
        columns={columns}
        onColumns={onColumns}
      />
      <VirtualTable
        label={`Documents of ${name}`}
        rowCount={total}
        rowAt={rowAt}
        rowKey={(d) => d._id}
        columns={tableColumns}
        sort={sort}
        onSort={onSort}
        selected={selected}
        onToggle={(id, i, extend) => void toggle(id, i, extend)}
        onToggleAll={() => void toggleAll()}
        onOpen={(d) => navigate(docHref(name, d._id))}
        onRange={onRange}
        rowClass={(d) => (pending.has(d._id) ? 'is-pending' : undefined)}
        empty={
          order === undefined ? 'Loading…' : matcher ? SCREENS_TEXT.noMatches : SCREENS_TEXT.emptyCollection
        }
      />
    </section>
  )
}
