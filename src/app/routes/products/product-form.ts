/**
 * The product editor's form ↔ the stored record. The price is typed in major units and stored as an
 * integer of minor units (money.ts, exact); the messages are the server's (PAYMENT_TEXT), as in
 * src/server/payments/catalog.ts.
 */
import type { SyncDoc } from '../../../db/types'
import { fromMinor, toMinor } from '../../../shared/money'
import { MAX_AMOUNT } from '../../../shared/payments'
import { PAYMENT_TEXT } from '../../../shared/texts'

export interface ProductForm {
  name: string
  description: string
  /** Major units as typed, e.g. "12.34". */
  price: string
  currency: string
  image: string
  active: boolean
  /** Units left; empty = unlimited. */
  stock: string
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')

export function productFormOf(doc: SyncDoc | undefined | null): ProductForm {
  const currency = str(doc?.currency) || 'EUR'
  return {
    name: str(doc?.name),
    description: str(doc?.description),
    price: typeof doc?.price === 'number' ? fromMinor(doc.price, currency) : '',
    currency,
    image: str(doc?.image),
    active: doc?.active !== false,
    stock: typeof doc?.stock === 'number' ? String(doc.stock) : '',
  }
}

export function productFields(f: ProductForm): { fields: Record<string, unknown> } | { error: string } {
  const name = f.name.trim()
  if (!name || name.length > 200) return { error: PAYMENT_TEXT.productNameInvalid }
  const currency = f.currency.trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(currency)) return { error: PAYMENT_TEXT.currencyInvalid }
  const price = toMinor(f.price, currency)
  if (price === null || price > MAX_AMOUNT) return { error: PAYMENT_TEXT.priceInvalid }
  const stock = f.stock.trim()
  if (stock && !/^\d+$/.test(stock)) return { error: PAYMENT_TEXT.stockInvalid }
  return {
    fields: {
      name,
      description: f.description.trim() || null,
      price,
      currency,
      image: f.image.trim() || null,
      active: f.active,
      stock: stock ? Number(stock) : null,
    },
  }
}
