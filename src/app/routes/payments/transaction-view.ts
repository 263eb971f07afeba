/**
 * What the Transactions screen reads off a mirrored transaction record (docs/operating/payments.md: the server
 * writes every field; the console only shows them): the list filters, the per-day totals of the chart
 * and the words for a status. Pure, so node tests cover them (transaction-view.test.ts).
 */
import type { SyncDoc } from '../../../db/types'
import { fractionDigits } from '../../../shared/money'
import { TRANSACTION_STATUSES, type TransactionStatus } from '../../../shared/payments'

export const statusOf = (d: SyncDoc): TransactionStatus =>
  TRANSACTION_STATUSES.includes(d.status as TransactionStatus) ? (d.status as TransactionStatus) : 'pending'

export const minor = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** What is left to refund: captured minus succeeded and in-flight refunds (the server's own rule). */
export function refundable(d: SyncDoc): number {
  const refunds = Array.isArray(d.refunds) ? (d.refunds as { amount?: unknown; status?: unknown }[]) : []
  const reserved = refunds
    .filter((r) => r.status === 'pending' || r.status === 'succeeded')
    .reduce((s, r) => s + minor(r.amount), 0)
  return Math.max(0, minor(d.paid) - Math.max(reserved, minor(d.refunded)))
}

/** "Ada <ada@example.com>", the e-mail or the name alone, or ''. */
export function customerText(d: SyncDoc): string {
  const c = (d.customer ?? {}) as { email?: unknown; name?: unknown }
  const name = typeof c.name === 'string' ? c.name : ''
  const email = typeof c.email === 'string' ? c.email : ''
  return name && email ? `${name} <${email}>` : name || email
}

/** The local calendar day of an ISO time, YYYY-MM-DD (a shop owner's "today" is local). */
export function localDay(iso: unknown): string {
  const t = typeof iso === 'string' ? new Date(iso) : null
  if (!t || Number.isNaN(t.getTime())) return ''
  const p = (n: number) => String(n).padStart(2, '0')
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}`
}

export interface TxFilter {
  status: '' | TransactionStatus
  /** Total at least / at most, typed in major units of each transaction's own currency. */
  min: string
  max: string
  /** Part of the customer's name or e-mail. */
  customer: string
  /** Local days YYYY-MM-DD, both inclusive; '' = open. */
  from: string
  to: string
}

export const NO_FILTER: TxFilter = { status: '', min: '', max: '', customer: '', from: '', to: '' }

/** The filter's problem in words (an amount that is not one), or null. */
export function filterProblem(f: TxFilter): string | null {
  for (const [label, v] of [
    ['Minimum', f.min],
    ['Maximum', f.max],
  ] as const)
    if (v.trim() && !/^\d+([.,]\d+)?$/.test(v.trim())) return `${label} amount must be a number such as 12.50`
  return null
}

/** A predicate for the list, the chart and the CSV export (all three show the same rows). */
export function txFilter(f: TxFilter): (d: SyncDoc) => boolean {
  const who = f.customer.trim().toLowerCase()
  return (d) => {
    if (f.status && statusOf(d) !== f.status) return false
    const currency = typeof d.currency === 'string' ? d.currency : 'EUR'
    if (f.min.trim() && compareAmount(minor(d.total), currency, f.min) < 0) return false
    if (f.max.trim() && compareAmount(minor(d.total), currency, f.max) > 0) return false
    if (who && !customerText(d).toLowerCase().includes(who)) return false
    const day = localDay(d._created)
    if (f.from && day < f.from) return false
    if (f.to && day > f.to) return false
    return true
  }
}

/**
 * Sign of (total − typed) where `total` is in minor units of `currency` and `typed` a plain major-unit
 * number ("12.5"). Both are scaled to the same count of decimals as integers, so "12.50" compares
 * exactly with ¥900 or €12.49 and no float rounds; text that is not a number compares as equal.
 */
export function compareAmount(total: number, currency: string, typed: string): number {
  const m = typed
    .trim()
    .replace(',', '.')
    .match(/^(\d+)(?:\.(\d*))?$/)
  if (!m) return 0
  const frac = m[2] ?? ''
  const digits = fractionDigits(currency)
  const k = Math.max(digits, frac.length)
  const a = BigInt(Math.trunc(total)) * 10n ** BigInt(k - digits)
  const b = BigInt(m[1]! + frac.padEnd(k, '0'))
  return a === b ? 0 : a < b ? -1 : 1
}

export interface DayTotals {
  days: string[]
  /** Per currency, the net takings of each day in minor units (paid − refunded), aligned with days. */
  series: { currency: string; net: number[] }[]
}

/** Longest span whose empty days are drawn as zero bars; a longer one shows only days with sales. */
export const FILL_DAYS_MAX = 92

/** Net takings per local day of creation and currency, of the transactions that took money. */
export function dayTotals(docs: readonly SyncDoc[]): DayTotals {
  const byCurrency = new Map<string, Map<string, number>>()
  const seen = new Set<string>()
  for (const d of docs) {
    if (minor(d.paid) <= 0) continue
    const day = localDay(d._created)
    const currency = typeof d.currency === 'string' ? d.currency : '???'
    if (!day) continue
    seen.add(day)
    const m = byCurrency.get(currency) ?? new Map<string, number>()
    m.set(day, (m.get(day) ?? 0) + minor(d.paid) - minor(d.refunded))
    byCurrency.set(currency, m)
  }
  let days = [...seen].sort()
  if (days.length > 1) {
    const all = daysBetween(days[0]!, days.at(-1)!)
    if (all.length <= FILL_DAYS_MAX) days = all
  }
  const series = [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, m]) => ({ currency, net: days.map((day) => m.get(day) ?? 0) }))
  return { days, series }
}

/** Every calendar day from `a` to `b` inclusive (YYYY-MM-DD), computed on UTC dates so DST never skips one. */
export function daysBetween(a: string, b: string): string[] {
  const out: string[] = []
  const end = Date.parse(`${b}T00:00:00Z`)
  for (let t = Date.parse(`${a}T00:00:00Z`); t <= end; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10))
  return out
}
