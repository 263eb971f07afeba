/**
 * The discount code editor's form ↔ the stored record, and its checks. The messages are the server's
 * (PAYMENT_TEXT, the ones src/server/payments/catalog.ts answers with), so the console refuses what
 * the server would refuse, in the same words, before anything waits in the outbox — every field's
 * problem at once, each shown beside its field.
 */
import type { SyncDoc } from '../../../db/types'
import { fromMinor, toMinor } from '../../../shared/money'
import { discountWindowInverted, MAX_AMOUNT } from '../../../shared/payments'
import { PAYMENT_TEXT } from '../../../shared/texts'
import type { Checked } from '../../components/catalog/catalog-kind'

export interface DiscountForm {
  kind: 'percent' | 'fixed'
  /** Percent (whole number) or the fixed amount in major units, as typed. */
  value: string
  currency: string
  starts: string
  expires: string
  maxUses: string
  active: boolean
  description: string
  /** Product ids the code is limited to; empty = every product. */
  products: string[]
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

export function discountFormOf(doc: SyncDoc | undefined | null): DiscountForm {
  const fixed = typeof doc?.amount === 'number'
  const currency = str(doc?.currency) || 'EUR'
  return {
    kind: fixed ? 'fixed' : 'percent',
    value: fixed
      ? fromMinor(doc!.amount as number, currency)
      : typeof doc?.percent === 'number'
        ? String(doc.percent)
        : '',
    currency,
    starts: str(doc?.starts).slice(0, 10),
    expires: str(doc?.expires).slice(0, 10),
    maxUses: typeof doc?.maxUses === 'number' ? String(doc.maxUses) : '',
    active: doc?.active !== false,
    description: str(doc?.description),
    products: Array.isArray(doc?.products)
      ? (doc.products as unknown[]).filter((p): p is string => typeof p === 'string').sort()
      : [],
  }
}

/** The form's keys a refusal or a check can name (the record's `percent`/`amount` are `value`). */
export const DISCOUNT_FIELD_OF: Record<string, keyof DiscountForm> = {
  percent: 'value',
  amount: 'value',
  currency: 'currency',
  starts: 'starts',
  expires: 'expires',
  maxUses: 'maxUses',
}

/**
 * The record's fields, or every problem at once (PAYMENT_TEXT messages keyed by the form's field;
 * `error` is the first, for the line near the button).
 */
export function discountFields(f: DiscountForm): Checked {
  const currency = f.currency.trim().toUpperCase()
  const errors: Record<string, string> = {}
  const fields: Record<string, unknown> = { active: f.active }
  if (f.kind === 'percent') {
    const n = Number(f.value.trim())
    if (!/^\d+$/.test(f.value.trim()) || n < 1 || n > 100) errors.value = PAYMENT_TEXT.percentInvalid
    Object.assign(fields, { percent: n, amount: null, currency: null })
  } else {
    if (!/^[A-Z]{3}$/.test(currency)) errors.currency = PAYMENT_TEXT.currencyInvalid
    const amount = toMinor(f.value, currency)
    if (amount === null || amount < 1 || amount > MAX_AMOUNT) errors.value = PAYMENT_TEXT.amountInvalid
    Object.assign(fields, { amount, currency, percent: null })
  }
  for (const key of ['starts', 'expires'] as const) {
    const v = f[key].trim()
    if (v && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))))
      errors[key] = PAYMENT_TEXT.dateInvalid(key)
    fields[key] = v || null
  }
  // The server's own rule (shared), so an inverted window never waits in the outbox to be refused.
  if (!errors.starts && !errors.expires && discountWindowInverted(fields.starts, fields.expires))
    errors.expires = PAYMENT_TEXT.windowInverted
  const max = f.maxUses.trim()
  if (max && (!/^\d+$/.test(max) || Number(max) < 1)) errors.maxUses = PAYMENT_TEXT.maxUsesInvalid
  fields.maxUses = max ? Number(max) : null
  fields.description = f.description.trim() || null
  fields.products = f.products.length ? [...f.products].sort() : null
  const first = Object.values(errors)[0]
  return first ? { error: first, errors } : { fields }
}

/** "3 / 10", "3 / ∞": a code's uses against its limit. */
export function usesText(doc: SyncDoc): string {
  const uses = typeof doc.uses === 'number' ? doc.uses : 0
  return `${uses} / ${typeof doc.maxUses === 'number' ? doc.maxUses : '∞'}`
}
