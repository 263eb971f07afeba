/**
 * What one catalogue section (discount codes, products) brings to the shared list and editor
 * (CatalogList.tsx, CatalogRecord.tsx): its names, its form ↔ record conversion and its fields. The
 * rest (permissions, create, outbox writes of changed fields only, delete, toasts) is written once.
 */
import type { ComponentType } from 'react'
import type { SyncDoc } from '../../../db/types'
import type { CatalogCollection } from './catalog-data'
import type { FieldsProps } from './fields'

/** The record's fields, or the problems: `error` the first, `errors` each beside its form field. */
export type Checked = { fields: Record<string, unknown> } | { error: string; errors?: Record<string, string> }

export interface CatalogKind<F> {
  collection: CatalogCollection
  /** Lower case [singular, plural], e.g. ['discount code', 'discount codes']. */
  noun: readonly [string, string]
  /** The list's heading and the tab's name, e.g. "Discount codes". */
  title: string
  /** Capitalised singular for toasts and the editor's panel, e.g. "Discount code". */
  label: string
  listHref: string
  formOf: (doc: SyncDoc | null | undefined) => F
  /** The record's fields (null = remove the field), or the server's messages for its problems. */
  fieldsOf: (form: F) => Checked
  Fields: ComponentType<FieldsProps<F>>
  /** The form field a server refusal's `field` stands beside (absent: the same name). */
  fieldOf?: Record<string, string>
  /** The name in "… was saved successfully": the code for discounts, the name for products. */
  savedName: (id: string, fields: Record<string, unknown>) => string
  /** The create form asks for the id (a discount code); absent, the server makes one. */
  idField?: { label: string; normalize: (typed: string) => string; check: (id: string) => string | null }
}

export const recordHref = (kind: Pick<CatalogKind<unknown>, 'listHref'>, id: string) =>
  `${kind.listHref}/${encodeURIComponent(id)}`

/** Only what changed relative to the version the edit started from (a merge patch). */
export function changedFields(
  base: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  // JSON equality: `products` is a list, compared by its (sorted) contents.
  for (const [k, v] of Object.entries(next))
    if (JSON.stringify(base[k] ?? null) !== JSON.stringify(v ?? null)) patch[k] = v
  return patch
}

/** A new record carries no nulls: an absent field is the default. */
export const createBody = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null))
