/**
 * Payments (issue 14): the shapes of products, discount codes and transactions, and the one pricing
 * function. Money is always an integer count of the currency's minor unit (cents; yen for JPY), so no
 * float ever rounds a price. Only the server prices a checkout (src/server/payments/checkout.ts); the
 * console imports these types to show what the server wrote.
 */

export const TRANSACTION_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'partially_refunded'] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]

/** 'test' is the built-in TEST provider (no money moves); 'stripe' is Stripe's PaymentIntents API. */
export type PaymentProviderName = 'test' | 'stripe'

/** Largest price, discount or total accepted: 10^10 minor units, far below 2^53. */
export const MAX_AMOUNT = 10_000_000_000
/** Largest quantity of one product in a checkout. */
export const MAX_QUANTITY = 100
/** A checkout token can be paid with for this long after init; the record stays forever. */
export const CHECKOUT_TTL_MS = 24 * 60 * 60_000
/**
 * A discount code's use is HELD by an unpaid checkout for this long after its last start (init, or a
 * pay call), then the sweeper (src/server/payments/sweeper.ts) cancels its provider payment and gives
 * the use back; a pay call after that takes the use again, or is refused when the code is used up by
 * then (docs/decisions/payments.md "Holding a code's use"). 15 minutes covers typing a card and a
 * 3-D Secure step, and a started-and-left checkout blocks a limited code for no longer. A pending
 * checkout idle this long is "abandoned": the console's Transactions list hides it by default.
 */
export const ABANDONED_CHECKOUT_MS = 15 * 60_000
/** How often the sweeper looks for expired holds: a third of the hold, so none outlives it by much. */
export const ABANDONED_SWEEP_INTERVAL_MS = 5 * 60_000
/**
 * POST /api/transactions/init/{id} is public and each call holds a discount code's use for a while, so
 * it is rate-limited: at most this many calls per window from one IP, and from one signed-in user
 * (whatever their IP); more answer 429 with Retry-After.
 */
export const CHECKOUT_INIT_MAX_PER_IP = 30
export const CHECKOUT_INIT_MAX_PER_USER = 30
export const CHECKOUT_INIT_WINDOW_MS = 10 * 60_000

/** The hosted checkout page (SPEC §2); the only console page whose CSP admits the card provider's script. */
export const CHECKOUT_PAGE = '/ui/checkout'
/** Stripe.js (SPEC §7 "a card payment provider script is loaded"); MOMENTUM_STRIPE_JS_URL replaces it. */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/'

/**
 * The TEST provider's card numbers (docs/operating/payments.md). They are the numbers Stripe documents for its
 * test mode, so one habit serves both: 4242… succeeds, 4000 0000 0000 0002 is declined.
 */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const

export interface Product {
  _id: string
  name: string
  description?: string
  /** Minor units of `currency`. */
  price: number
  /** ISO 4217, upper case (EUR, USD, JPY). */
  currency: string
  image?: string
  active: boolean
  /** Units left; absent means unlimited. */
  stock?: number | null
}

export interface Discount {
  _id: string
  /** Exactly one of percent (1–100) and amount (minor units of `currency`). */
  percent?: number
  amount?: number
  currency?: string
  /** ISO dates (YYYY-MM-DD or a full timestamp); `expires` is inclusive of its whole day. */
  starts?: string
  expires?: string
  /** Most transactions that may carry the code; absent means unlimited. */
  maxUses?: number | null
  /** Transactions carrying the code, counted by the server only (atomically, at checkout). */
  uses?: number
  /** Product ids the code applies to; absent or empty means every product. */
  products?: string[]
  active?: boolean
  description?: string
}

export interface TransactionItem {
  product: string
  name: string
  quantity: number
  /** The product's price when the checkout began. */
  unitPrice: number
  amount: number
}

export interface TransactionEvent {
  time: string
  /** created, discount, payment_started, paid, failed, refund_requested, refunded, refund_failed, … */
  type: string
  /** Who said so: the server, the browser's confirmation, the provider's webhook, a staff user. */
  source: 'server' | 'browser' | 'webhook' | 'staff'
  amount?: number
  detail?: string
  /** The provider's event id: a webhook already in the timeline is never applied twice. */
  eventId?: string
  user?: string
}

export interface TransactionRefund {
  id: string
  amount: number
  status: 'pending' | 'succeeded' | 'failed'
  providerRef: string | null
  time: string
  user: string | null
  /**
   * 'provider': made outside our API (Stripe's dashboard), learnt from its `charge.refunded` webhook;
   * absent: made through DELETE /api/transactions/{id}.
   */
  source?: 'provider'
}

export interface Transaction {
  _id: string
  items: TransactionItem[]
  currency: string
  subtotal: number
  /**
   * `heldUntil`: the code's use is held for this checkout until then (ABANDONED_CHECKOUT_MS after its
   * last start); `released`: when the sweeper gave the use back (a pay call takes it again).
   */
  discount: { code: string; amount: number; heldUntil?: string; released?: string } | null
  total: number
  status: TransactionStatus
  provider: PaymentProviderName
  /** True for the TEST provider: no money moved. */
  test: boolean
  /** The provider's payment id (a PaymentIntent id for Stripe). */
  providerRef: string | null
  /** Captured amount (0 until paid) and the sum of succeeded refunds. */
  paid: number
  refunded: number
  refunds: TransactionRefund[]
  customer: { email?: string; name?: string } | null
  expires: string
  events: TransactionEvent[]
}

/** When the checkout's code hold ends: its own `heldUntil`, else (older records) init + the hold. */
export function holdEnds(tx: Pick<Transaction, 'discount' | 'expires'>): number {
  const held = tx.discount?.heldUntil
  return held ? Date.parse(held) : Date.parse(tx.expires) - CHECKOUT_TTL_MS + ABANDONED_CHECKOUT_MS
}

/**
 * A checkout nobody finished: still pending and untouched (no event) for ABANDONED_CHECKOUT_MS. The
 * console's Transactions list hides these by default; they stay in the records.
 */
export function checkoutAbandoned(
  tx: Pick<Transaction, 'status' | 'events' | 'expires'>,
  now: number,
): boolean {
  if (tx.status !== 'pending') return false
  const times = (tx.events ?? []).map((e) => Date.parse(e.time)).filter((t) => !Number.isNaN(t))
  const last = times.length ? Math.max(...times) : Date.parse(tx.expires) - CHECKOUT_TTL_MS
  return last + ABANDONED_CHECKOUT_MS <= now
}

const DAY_MS = 24 * 60 * 60_000
/** A window bound as an instant: a date alone starts its day at 00:00 UTC, and `expires` ends it. */
const bound = (v: string, end: boolean): number => Date.parse(v) + (end && v.length === 10 ? DAY_MS - 1 : 0)

/**
 * True when a code's window ends before it starts (`expires` is inclusive of its whole day, so a
 * one-day window has starts = expires). The server refuses such a code (400 naming `expires`) and the
 * console's discount form says so before sending; both call this. Unparsable dates are another check's.
 */
export function discountWindowInverted(starts: unknown, expires: unknown): boolean {
  if (typeof starts !== 'string' || typeof expires !== 'string' || !starts || !expires) return false
  const from = bound(starts, false)
  const until = bound(expires, true)
  return !Number.isNaN(from) && !Number.isNaN(until) && until < from
}

/** Whether the code can be used at `now` at all (active, in its window); use count aside. */
export function discountOpen(discount: Discount, now: Date): boolean {
  if (discount.active === false) return false
  const day = now.toISOString().slice(0, 10)
  const at = now.toISOString()
  if (discount.starts && (discount.starts.length === 10 ? day < discount.starts : at < discount.starts)) {
    return false
  }
  if (discount.expires && (discount.expires.length === 10 ? day > discount.expires : at > discount.expires)) {
    return false
  }
  return true
}

/**
 * The discount a code gives on some items, in minor units: a percent of the eligible items (rounded to
 * the nearest unit, halves up) or a fixed amount in the same currency, never more than those items
 * cost. 0 when the code does not apply to any item (or is in another currency).
 */
export function discountAmount(discount: Discount, items: TransactionItem[], currency: string): number {
  const scope = discount.products?.length ? new Set(discount.products) : null
  const eligible = items.filter((i) => !scope || scope.has(i.product)).reduce((s, i) => s + i.amount, 0)
  if (eligible === 0) return 0
  if (typeof discount.percent === 'number') return Math.floor((eligible * discount.percent + 50) / 100)
  if (typeof discount.amount === 'number' && discount.currency === currency) {
    return Math.min(discount.amount, eligible)
  }
  return 0
}
