/**
 * CSV export of the Transactions list (the rows the filters show): one line per transaction with its
 * amounts in major units of its currency (as a spreadsheet reads them) and the customer. Written by
 * the Database screen's toCsv (papaparse unparse with escapeFormulae): a customer named "=HYPERLINK(…)"
 * is typed by whoever pays, so it must arrive in a spreadsheet as text, never as a formula.
 */
import type { SyncDoc } from '../../../db/types'
import { fromMinor } from '../../../shared/money'
import { toCsv } from '../../data/transfer'
import { minor, statusOf } from './transaction-view'

export const CSV_COLUMNS = [
  'id',
  'created',
  'status',
  'customer_name',
  'customer_email',
  'items',
  'currency',
  'subtotal',
  'discount_code',
  'discount',
  'total',
  'paid',
  'refunded',
  'provider',
  'test',
] as const

const str = (v: unknown) => (typeof v === 'string' ? v : '')

export function csvRow(d: SyncDoc): Record<string, unknown> {
  const currency = str(d.currency) || 'EUR'
  const money = (v: unknown) => fromMinor(minor(v), currency)
  const customer = (d.customer ?? {}) as Record<string, unknown>
  const discount = (d.discount ?? null) as { code?: unknown; amount?: unknown } | null
  const items = Array.isArray(d.items) ? (d.items as { name?: unknown; quantity?: unknown }[]) : []
  return {
    id: d._id,
    created: d._created,
    status: statusOf(d),
    customer_name: str(customer.name),
    customer_email: str(customer.email),
    items: items.map((i) => `${minor(i.quantity)} × ${str(i.name)}`).join('; '),
    currency,
    subtotal: money(d.subtotal),
    discount_code: str(discount?.code),
    discount: money(discount?.amount),
    total: money(d.total),
    paid: money(d.paid),
    refunded: money(d.refunded),
    provider: str(d.provider),
    test: d.test === true ? 'yes' : 'no',
  }
}

export async function transactionsCsv(docs: readonly SyncDoc[]): Promise<Blob> {
  const text = await toCsv(CSV_COLUMNS, docs.map(csvRow))
  return new Blob([text], { type: 'text/csv;charset=utf-8' })
}
