/**
 * Validation of products and discount codes written through /api/products and /api/discounts (the
 * collection routes, so the console's outbox, If-Match and Idempotency-Key work as on every module).
 * A patch is checked as the record it would produce (the stored one with the patch merged), so a
 * patch cannot leave a code with both a percent and an amount. `uses` is the server's count: any value
 * sent is dropped, on create and on patch.
 *
 * Every field is checked when present, none is required: a record without a name, price or currency
 * is a draft (saved offline half-typed, or made by an import), stored but not for sale — the checkout
 * (payments/checkout.ts) refuses a product without a price and currency, and a code without a percent
 * or an amount never applies. `active` absent means active. Other fields are kept, as on every
 * collection.
 */
import type { FastifyRequest } from 'fastify'
import { isValidId } from '../../shared/ids'
import { discountWindowInverted, MAX_AMOUNT } from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import type { Prepared } from '../collections/routes'
import { badRequest } from '../errors'
import { mergePatch } from '../store/doc'
import type { Body, DocumentStore } from '../store/types'

const CURRENCY = /^[A-Z]{3}$/
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/
const isWhole = (v: unknown, min: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_AMOUNT
const absent = (v: unknown) => v === undefined || v === null

function optionalString(record: Body, field: string, max = 2000): void {
  const v = record[field]
  if (!absent(v) && (typeof v !== 'string' || v.length > max))
    throw badRequest(PAYMENT_TEXT.fieldInvalid(field))
}

/** The record a write would leave: the body on create, the stored record with the patch merged on patch. */
async function resulting(
  store: DocumentStore,
  collection: string,
  body: Body,
  op: 'create' | 'patch',
  id?: string,
) {
  if (op === 'create' || !id) return body
  // A missing record is left to the store, which answers the patch 404.
  const current = await store.get(collection, id)
  return current ? (mergePatch(current, body) as Body) : {}
}

/** A collection's prepare hook (registerCollection), the shape both catalogue collections fill. */
type Preparer = (
  body: Body,
  op: 'create' | 'patch',
  id: string | undefined,
  req: FastifyRequest,
) => Promise<Prepared>

export function productPreparer(store: DocumentStore): Preparer {
  return async (body, op, id) => {
    const p = await resulting(store, 'products', body, op, id)
    if (!absent(p.name) && (typeof p.name !== 'string' || !p.name.trim() || p.name.length > 200)) {
      throw badRequest(PAYMENT_TEXT.productNameInvalid)
    }
    if (!absent(p.price) && !isWhole(p.price, 0)) throw badRequest(PAYMENT_TEXT.priceInvalid)
    if (!absent(p.currency) && (typeof p.currency !== 'string' || !CURRENCY.test(p.currency))) {
      throw badRequest(PAYMENT_TEXT.currencyInvalid)
    }
    if (!absent(p.stock) && !isWhole(p.stock, 0)) throw badRequest(PAYMENT_TEXT.stockInvalid)
    if (!absent(p.active) && typeof p.active !== 'boolean') throw badRequest(PAYMENT_TEXT.activeInvalid)
    optionalString(p, 'description')
    optionalString(p, 'image')
    return { body }
  }
}

export function discountPreparer(store: DocumentStore): Preparer {
  return async (body, op, id) => {
    const { uses: _ignored, ...clean } = body
    const d = await resulting(store, 'discounts', clean, op, id)
    const hasPercent = !absent(d.percent)
    const hasAmount = !absent(d.amount)
    if (hasPercent && hasAmount) throw badRequest(PAYMENT_TEXT.discountKind)
    if (hasPercent && !(isWhole(d.percent, 1) && (d.percent as number) <= 100))
      throw badRequest(PAYMENT_TEXT.percentInvalid, { field: 'percent' })
    if (hasAmount) {
      if (!isWhole(d.amount, 1)) throw badRequest(PAYMENT_TEXT.amountInvalid, { field: 'amount' })
      if (typeof d.currency !== 'string' || !CURRENCY.test(d.currency))
        throw badRequest(PAYMENT_TEXT.currencyInvalid, { field: 'currency' })
    }
    for (const field of ['starts', 'expires']) {
      const v = d[field]
      if (!absent(v) && (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(Date.parse(v)))) {
        throw badRequest(PAYMENT_TEXT.dateInvalid(field), { field })
      }
    }
    // On the resulting record, so a patch of either end cannot leave the window inverted.
    if (discountWindowInverted(d.starts, d.expires))
      throw badRequest(PAYMENT_TEXT.windowInverted, { field: 'expires' })
    if (!absent(d.maxUses) && !isWhole(d.maxUses, 1))
      throw badRequest(PAYMENT_TEXT.maxUsesInvalid, { field: 'maxUses' })
    if (!absent(d.products) && (!Array.isArray(d.products) || !d.products.every((p) => isValidId(p)))) {
      throw badRequest(PAYMENT_TEXT.productsInvalid)
    }
    if (!absent(d.active) && typeof d.active !== 'boolean') throw badRequest(PAYMENT_TEXT.activeInvalid)
    optionalString(d, 'description')
    return { body: op === 'create' ? { ...clean, uses: 0 } : clean }
  }
}
