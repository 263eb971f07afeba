/**
 * Starting a checkout: the server prices it from the stored products (a price in the request is never
 * read), applies a discount code, and hands out the checkout token.
 *
 * A discount code's use is counted when the code is put on a transaction, in the SAME store
 * transaction that writes the record: writeMany([patch the discount's `uses` at the revision read,
 * create or rewrite the transaction]). A concurrent checkout that counted first makes the patch a 409,
 * the whole batch rolls back, and the checkout decides again on the new count — so fifty parallel
 * checkouts of a code limited to ten give exactly ten, on SQLite and PostgreSQL alike. Replacing the
 * code on a pending checkout gives its use back in the same batch. The use is HELD, not spent: it
 * lasts until `discount.heldUntil` (ABANDONED_CHECKOUT_MS after the last start), then the sweeper
 * gives it back and a pay call takes it again the same way (hold.ts).
 *
 * The token is `{transaction id}.{random}`; only a SHA-256 of the random part is kept, in the secret
 * store (never in the synced record, so staff who can read transactions cannot pay as a customer).
 */
import crypto from 'node:crypto'
import { isValidId } from '../../shared/ids'
import {
  ABANDONED_CHECKOUT_MS,
  CHECKOUT_TTL_MS,
  type Discount,
  discountAmount,
  discountOpen,
  MAX_QUANTITY,
  type Product,
  type Transaction,
  type TransactionItem,
} from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import { ApiError, badRequest } from '../errors'
import { generateId, isPlainObject, stripMeta } from '../store/doc'
import type { Doc, DocumentStore, Write } from '../store/types'
import { asBody, nowIso, TRANSACTIONS, type TxDoc } from './ledger'
import type { PaymentProvider } from './providers'

const TOKEN_SECRET = 'checkout-token'
const MAX_RETRIES = 200

export interface InitRequest {
  product: string
  quantity: number
  code: string | null
  customer: Transaction['customer']
}

/** Reads the init body: quantity, code and customer; any price or total in it is ignored. */
export function parseInit(product: string, body: unknown): InitRequest {
  const b = isPlainObject(body) ? body : {}
  const quantity = b.quantity ?? 1
  if (!Number.isInteger(quantity) || (quantity as number) < 1 || (quantity as number) > MAX_QUANTITY) {
    throw badRequest(PAYMENT_TEXT.quantityInvalid(MAX_QUANTITY))
  }
  return {
    product,
    quantity: quantity as number,
    code: parseCode(b.code),
    customer: parseCustomer(b.customer),
  }
}

export function parseCode(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string' || !isValidId(value.trim()))
    throw badRequest(PAYMENT_TEXT.codeUnknown(String(value).slice(0, 40)))
  return value.trim()
}

function parseCustomer(value: unknown): Transaction['customer'] {
  if (value === undefined || value === null) return null
  if (!isPlainObject(value)) throw badRequest(PAYMENT_TEXT.customerInvalid)
  const out: { email?: string; name?: string } = {}
  for (const field of ['email', 'name'] as const) {
    const v = value[field]
    if (v === undefined || v === null) continue
    if (typeof v !== 'string' || v.length > 200) throw badRequest(PAYMENT_TEXT.customerInvalid)
    out[field] = v.trim()
  }
  return out
}

/** The stored code for what a customer typed: the exact id, else its upper-case form. */
export async function findDiscount(store: DocumentStore, code: string): Promise<(Doc & Discount) | null> {
  const exact = await store.get('discounts', code)
  if (exact) return exact as Doc & Discount
  const upper = code.toUpperCase()
  return upper === code ? null : ((await store.get('discounts', upper)) as (Doc & Discount) | null)
}

/** The code's discount on these items, or a 400 saying why it cannot be used. */
export function priceWith(
  discount: (Doc & Discount) | null,
  code: string,
  items: TransactionItem[],
  currency: string,
) {
  if (!discount || !discountOpen(discount, new Date())) throw badRequest(PAYMENT_TEXT.codeUnknown(code))
  if (typeof discount.maxUses === 'number' && (discount.uses ?? 0) >= discount.maxUses) {
    throw badRequest(PAYMENT_TEXT.codeUsedUp(code))
  }
  const amount = discountAmount(discount, items, currency)
  if (amount <= 0) throw badRequest(PAYMENT_TEXT.codeNotApplicable(code))
  return amount
}

/** The end of a code hold that starts at `now` (ms). */
export const heldFrom = (now: number): string => new Date(now + ABANDONED_CHECKOUT_MS).toISOString()

/** A code's `uses` moved by `delta`, at the revision read (a concurrent count makes it a 409). */
export const usesPatch = (d: Doc & Discount, delta: number): Write => ({
  op: 'patch',
  collection: 'discounts',
  id: d._id,
  body: { uses: Math.max(0, (d.uses ?? 0) + delta) },
  expectedRev: d._rev,
})

/** Runs `attempt` until its batch commits without a revision conflict. */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; i < MAX_RETRIES; i++) {
    try {
      return await attempt()
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) continue
      throw err
    }
  }
  throw new ApiError('unavailable', 'The checkout is busy; try again')
}

/** Creates the pending transaction (counting the code's use atomically) and returns it with its token. */
export async function initCheckout(
  store: DocumentStore,
  provider: PaymentProvider,
  input: InitRequest,
): Promise<{ tx: TxDoc; token: string }> {
  const product = (await store.get('products', input.product)) as (Doc & Product) | null
  // A draft (no price or currency yet) or a withdrawn product is not for sale.
  if (
    !product ||
    product.active === false ||
    typeof product.price !== 'number' ||
    typeof product.currency !== 'string'
  ) {
    throw new ApiError('not_found', PAYMENT_TEXT.productUnavailable(input.product))
  }
  if (typeof product.stock === 'number' && product.stock < input.quantity) {
    throw new ApiError('conflict', PAYMENT_TEXT.outOfStock(input.product))
  }
  const items: TransactionItem[] = [
    {
      product: product._id,
      name: String(product.name ?? product._id),
      quantity: input.quantity,
      unitPrice: product.price,
      amount: product.price * input.quantity,
    },
  ]
  const currency = product.currency
  const subtotal = items.reduce((s, i) => s + i.amount, 0)
  const id = generateId()
  const secret = crypto.randomBytes(24).toString('base64url')
  const created = nowIso()
  const tx = await retryOnConflict(async () => {
    const writes: Write[] = []
    let discount: Transaction['discount'] = null
    if (input.code) {
      const d = await findDiscount(store, input.code)
      const amount = priceWith(d, input.code, items, currency)
      writes.push(usesPatch(d!, +1))
      discount = { code: d!._id, amount, heldUntil: heldFrom(Date.parse(created)) }
    }
    const body: Transaction = {
      _id: id,
      items,
      currency,
      subtotal,
      discount,
      total: subtotal - (discount?.amount ?? 0),
      status: 'pending',
      provider: provider.name,
      test: provider.name === 'test',
      providerRef: null,
      paid: 0,
      refunded: 0,
      refunds: [],
      customer: input.customer,
      expires: new Date(Date.parse(created) + CHECKOUT_TTL_MS).toISOString(),
      events: [
        { time: created, type: 'created', source: 'server', amount: subtotal },
        ...(discount
          ? [
              {
                time: created,
                type: 'discount',
                source: 'server' as const,
                amount: discount.amount,
                detail: discount.code,
              },
            ]
          : []),
      ],
    }
    writes.push({ op: 'create', collection: TRANSACTIONS, id, body: asBody(body) })
    const results = await store.writeMany(writes, { user: null })
    return results[results.length - 1]!.body as TxDoc
  })
  // After the commit: a refused checkout (a used-up code) leaves no secret behind.
  await store.secrets.set(TOKEN_SECRET, id, sha256(secret))
  return { tx, token: `${id}.${secret}` }
}

/**
 * Puts another code on a pending checkout (or removes it with null): the old code's use is given back
 * and the new one counted in the same batch as the re-priced record.
 */
export async function changeDiscount(store: DocumentStore, id: string, code: string | null): Promise<TxDoc> {
  return retryOnConflict(async () => {
    const tx = (await store.get(TRANSACTIONS, id)) as TxDoc | null
    if (!tx) throw new ApiError('not_found', PAYMENT_TEXT.checkoutTokenInvalid)
    assertPayable(tx)
    if ((tx.discount?.code ?? null) === code) return tx
    const writes: Write[] = []
    // A released code holds no use any more: nothing to give back.
    if (tx.discount && !tx.discount.released) {
      const old = (await store.get('discounts', tx.discount.code)) as (Doc & Discount) | null
      if (old) writes.push(usesPatch(old, -1))
    }
    let discount: Transaction['discount'] = null
    if (code) {
      const d = await findDiscount(store, code)
      if (d && d._id === tx.discount?.code) return tx
      discount = {
        code: d?._id ?? code,
        amount: priceWith(d, code, tx.items, tx.currency),
        heldUntil: heldFrom(Date.now()),
      }
      writes.push(usesPatch(d!, +1))
    }
    const time = nowIso()
    const next: Transaction = {
      ...stripMeta(tx),
      discount,
      total: tx.subtotal - (discount?.amount ?? 0),
      events: [
        ...tx.events,
        {
          time,
          type: 'discount',
          source: 'browser',
          amount: discount?.amount ?? 0,
          detail: discount?.code ?? 'removed',
        },
      ],
    } as Transaction
    writes.push({ op: 'put', collection: TRANSACTIONS, id, body: asBody(next), expectedRev: tx._rev })
    const results = await store.writeMany(writes, { user: null })
    return results[results.length - 1]!.body as TxDoc
  })
}

/** A checkout can still be paid: pending or failed (another card), and not expired. */
export function assertPayable(tx: Transaction): void {
  if (tx.status !== 'pending' && tx.status !== 'failed')
    throw new ApiError('conflict', PAYMENT_TEXT.checkoutClosed)
  if (Date.parse(tx.expires) < Date.now()) throw new ApiError('gone', PAYMENT_TEXT.checkoutExpired)
}

/** The transaction a checkout token opens, or 404 with the same text whatever was wrong. */
export async function transactionForToken(store: DocumentStore, token: unknown): Promise<TxDoc> {
  const invalid = () => new ApiError('not_found', PAYMENT_TEXT.checkoutTokenInvalid)
  if (typeof token !== 'string') throw invalid()
  const dot = token.lastIndexOf('.')
  const id = token.slice(0, dot)
  if (dot < 1 || !isValidId(id)) throw invalid()
  const stored = await store.secrets.get(TOKEN_SECRET, id)
  const given = sha256(token.slice(dot + 1))
  if (!stored || !crypto.timingSafeEqual(Buffer.from(stored), Buffer.from(given))) throw invalid()
  const tx = (await store.get(TRANSACTIONS, id)) as TxDoc | null
  if (!tx) throw invalid()
  return tx
}

/** What the checkout page may see: the order and its state, not the customer or the timeline. */
export function checkoutView(tx: TxDoc): Record<string, unknown> {
  const { _id, items, currency, subtotal, discount, total, status, provider, test, expires } = tx
  const failure =
    status === 'failed' ? [...tx.events].reverse().find((e) => e.type === 'failed')?.detail : undefined
  return {
    _id,
    items,
    currency,
    subtotal,
    discount,
    total,
    status,
    provider,
    test,
    expires,
    ...(failure ? { error: failure } : {}),
  }
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex')
}
