/**
 * What the record-list screens (Actions, Templates, Reports, Groups, Forms, Users, and the catalogue's
 * Discount codes and Products) share around RecordList, so each
 * brings only its columns, sort values and create form: ListScreen, the permission gate with the page
 * title, breadcrumbs and the screen's section; and useListScreen, the rows narrowed by an optional
 * drop-down filter, the Name column (link, id, "Not synced yet") and opening a record just created.
 * See docs/decisions/screens.md.
 */
import { type ReactNode, useMemo, useState } from 'react'
import { useLocation } from 'wouter'
import type { SyncDoc } from '../../db/types'
import type { Rows } from '../data/collection-rows'
import { text } from '../format/values'
import { NoAccess } from '../session/NoAccess'
import { useCan } from '../session/use-can'
import { type Crumb, useBreadcrumbs, usePageTitle } from '../shell/page-chrome'
import { FilterSelect } from './FilterSelect'
import { NameCell } from './NameCell'
import type { Column } from './VirtualTable'

export interface ListScreenProps {
  /** Page title, heading of the refusal, and the only breadcrumb unless `crumbs` says otherwise. */
  title: string
  crumbs?: readonly Crumb[]
  /**
   * The name the refusal gives the screen; the title unless given. A tab of a section ("API tokens"
   * of Users) is refused under its section's name, the one the sidebar shows.
   */
  section?: string
  /** The permission the list needs, e.g. 'templates:r'; without it the screen says so (NoAccess). */
  needed: string
  /** The section's own classes beside the shared ones (its stylesheet's hooks). */
  className?: string
  /** The list itself; rendered (so its hooks and reads run) only when the permission is there. */
  children: ReactNode
}

export function ListScreen({ title, crumbs, section, needed, className, children }: ListScreenProps) {
  usePageTitle(title)
  useBreadcrumbs(crumbs ?? [title])
  const allowed = useCan()
  if (!allowed(needed)) return <NoAccess section={section ?? title} needed={needed} />
  return (
    <section
      className={`screen screen-table auth-screen${className ? ` ${className}` : ''}`}
      aria-labelledby="page-heading"
    >
      {children}
    </section>
  )
}

/** The drop-down beside the search box that narrows the rows (FilterSelect's texts, and the test). */
export interface ListFilter<V extends string> {
  label: string
  name: string
  all: string
  options: readonly V[]
  /** Whether a row shows while `value` is chosen. Keep it stable (module level): rows re-filter on change. */
  test: (doc: SyncDoc, value: V) => boolean
}

export interface NameColumn {
  width: number
  /** Column key and header; 'name' / 'Name' unless given. */
  key?: string
  label?: string
  /** The shown name; the `name` field unless given (the id stands in when it is empty). */
  nameOf?: (doc: SyncDoc) => string
  /** What stands before the name and id, e.g. a user's picture. */
  leading?: (doc: SyncDoc) => ReactNode
}

/** A row's name for sorting: its name field, else its id, case-folded. */
export const byName = (doc: SyncDoc): string => (text(doc.name) || doc._id).toLowerCase()

export function useListScreen<V extends string = never>(options: {
  rows: Rows | undefined
  href: (id: string) => string
  filter?: ListFilter<V>
}) {
  const { rows: all, href, filter } = options
  const [, navigate] = useLocation()
  const [value, setValue] = useState<'' | V>('')
  const test = filter?.test
  const rows = useMemo(
    () => (all && test && value ? { ...all, docs: all.docs.filter((d) => test(d, value)) } : all),
    [all, test, value],
  )
  const nameColumn = ({
    width,
    key = 'name',
    label = 'Name',
    nameOf,
    leading,
  }: NameColumn): Column<SyncDoc> => ({
    key,
    label,
    width,
    sortable: true,
    render: (d) => (
      <NameCell
        href={href(d._id)}
        name={nameOf ? nameOf(d) : text(d.name)}
        id={d._id}
        pending={!!all?.pending.has(d._id)}
        leading={leading?.(d)}
      />
    ),
  })
  return {
    /** The rows the filter lets through (all of them while it is on "All …"). */
    rows,
    /** The filter's current value, '' for all. */
    filterValue: value,
    /** The filter's drop-down, for RecordList's `filters`. */
    filters: filter ? (
      <FilterSelect
        label={filter.label}
        name={filter.name}
        all={filter.all}
        options={filter.options}
        value={value}
        onChange={setValue}
      />
    ) : undefined,
    nameColumn,
    /** Opens a record's page, e.g. the one a create form just made. */
    open: (id: string) => navigate(href(id)),
  }
}
