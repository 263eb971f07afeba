/**
 * The conflict view's table as data: one row per top-level field that appears in base, mine or theirs,
 * and the merged body built from a per-field choice. Pure, so it is unit-tested without a browser.
 * Fields are compared whole (a nested object is one field): a per-leaf merge would let the user build
 * objects neither side ever had, which is hard to review in a table.
 */
import type { SyncDoc } from '../../db/types'
import { stripMeta } from '../../sync/overlay'

export type Side = 'mine' | 'theirs'

export interface FieldRow {
  field: string
  base: unknown
  mine: unknown
  theirs: unknown
  /** Present on that side (a field missing from a side is shown as "(none)"). */
  inBase: boolean
  inMine: boolean
  inTheirs: boolean
  /** Mine and theirs differ: the user has something to choose. Only these rows are shown. */
  differs: boolean
  /** Who changed the field since base: only 'both' is a clash (marked red); 'none' is not shown. */
  change: 'none' | 'mine' | 'theirs' | 'both'
  /** The side a three-way merge would pick: mine where I changed the field, else theirs. */
  suggested: Side
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export function fieldRows(base: SyncDoc | null, mine: SyncDoc | null, theirs: SyncDoc | null): FieldRow[] {
  const b = base ? stripMeta(base) : {}
  const m = mine ? stripMeta(mine) : {}
  const t = theirs ? stripMeta(theirs) : {}
  const names = [...new Set([...Object.keys(b), ...Object.keys(m), ...Object.keys(t)])].sort()
  return names.map((field) => {
    const inBase = field in b
    const inMine = field in m
    const inTheirs = field in t
    const changedByMe = inMine !== inBase || !same(m[field], b[field])
    const changedThere = inTheirs !== inBase || !same(t[field], b[field])
    return {
      field,
      base: b[field],
      mine: m[field],
      theirs: t[field],
      inBase,
      inMine,
      inTheirs,
      differs: inMine !== inTheirs || !same(m[field], t[field]),
      change: changedByMe ? (changedThere ? 'both' : 'mine') : changedThere ? 'theirs' : 'none',
      suggested: changedByMe ? 'mine' : 'theirs',
    }
  })
}

/** The body for `resolve(id, {choice: 'merge', body})`: each field from the chosen side, absent if absent there. */
export function mergedBody(
  rows: readonly FieldRow[],
  choice: Readonly<Record<string, Side>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const row of rows) {
    const side = choice[row.field] ?? row.suggested
    const present = side === 'mine' ? row.inMine : row.inTheirs
    if (present) out[row.field] = side === 'mine' ? row.mine : row.theirs
  }
  return out
}

/** A value as the table shows it: strings bare, everything else as compact JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}
