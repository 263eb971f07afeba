/**
 * The list screen of a catalogue section (/discounts, /products; docs/using/payments.md): the
 * "Discount codes | Products" tabs inside the shared ListScreen, the shared RecordList over the
 * mirror's rows, and the "New …" form with the section's own fields (CreateCatalogRecord.tsx).
 */
import { Link } from 'wouter'
import type { SyncDoc } from '../../../db/types'
import type { Crumb } from '../../shell/page-chrome'
import { ListScreen, type NameColumn, useListScreen } from '../list-screen'
import { RecordList } from '../RecordList'
import type { Column } from '../VirtualTable'
import { CreateCatalogRecord } from './CreateCatalogRecord'
import { useCatalogRows } from './catalog-data'
import { type CatalogKind, recordHref } from './catalog-kind'
import '../ui.css'
import '../records.css'
import './catalog.css'

/** The Discount codes / Products tabs, on both lists: where a shop owner finds products. */
function CatalogTabs({ current }: { current: string }) {
  const tab = (href: string, label: string) => (
    <Link href={href} className="tab" aria-current={current === href ? 'page' : undefined}>
      {label}
    </Link>
  )
  return (
    <nav className="tabs" aria-label="Shop sections">
      {tab('/discounts', 'Discount codes')}
      {tab('/products', 'Products')}
    </nav>
  )
}

/** An Active column's cell, for both lists. */
export const activePill = (d: SyncDoc) => (
  <span className={d.active === false ? 'pill' : 'pill pill-on'}>{d.active === false ? 'Off' : 'On'}</span>
)

export interface CatalogListProps<F, K extends string> {
  kind: CatalogKind<F>
  crumbs: readonly Crumb[]
  /** The shared Name column (link, id, "Not synced yet") before `columns`; absent, `columns` name the rows. */
  nameColumn?: NameColumn
  columns: Column<SyncDoc>[]
  defaultSort: K
  /** Stable (useCallback or module level): RecordList memoizes on them. */
  searchText: (doc: SyncDoc) => string[]
  sortValue: (doc: SyncDoc, by: K) => string | number
  searchPlaceholder: string
}

export function CatalogList<F, K extends string>(props: CatalogListProps<F, K>) {
  const { kind } = props
  return (
    <ListScreen title={kind.title} crumbs={props.crumbs} needed={`${kind.collection}:r`}>
      <CatalogTabs current={kind.listHref} />
      <CatalogRows {...props} />
    </ListScreen>
  )
}

function CatalogRows<F, K extends string>(props: CatalogListProps<F, K>) {
  const { kind } = props
  const href = (id: string) => recordHref(kind, id)
  const list = useListScreen({ rows: useCatalogRows(kind.collection), href })
  const columns = props.nameColumn ? [list.nameColumn(props.nameColumn), ...props.columns] : props.columns
  return (
    <RecordList<K>
      collection={kind.collection}
      rows={list.rows}
      title={kind.title}
      noun={kind.noun}
      href={href}
      columns={columns}
      defaultSort={props.defaultSort}
      searchText={props.searchText}
      sortValue={props.sortValue}
      searchPlaceholder={props.searchPlaceholder}
      renderCreate={(close) => (
        <CreateCatalogRecord
          kind={kind}
          onDone={(id) => {
            close()
            list.open(id)
          }}
        />
      )}
    />
  )
}
