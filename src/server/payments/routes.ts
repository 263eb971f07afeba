/**
 * Payments (issue 14, SPEC §7): products, discount codes and transactions as collections, and the
 * calls of a checkout. docs/operating/payments.md is the reference; docs/decisions/payments.md says why.
 *
 *   POST   /api/transactions/init/{product}   public: a pending transaction priced by the server + token
 *   GET    /api/transactions/checkout/{id}    the checkout page (X-Checkout-Token): order and provider
 *   POST   /api/transactions/checkout/{id}/discount  put a code on it (or remove it: code null)
 *   POST   /api/transactions/checkout/{id}/pay       TEST: charge a test card; Stripe: the client secret
 *   POST   /api/transactions/checkout/{id}/confirm   the browser's confirmation: asks the provider
 *   POST   /api/transactions/notify/{provider}       the provider's webhook, verified on the raw body
 *   DELETE /api/transactions/{id}[?amount=]          refund (all that is left, or `amount`)
 *
 * POST and PATCH on /api/transactions are refused: only these routes write a transaction, so no
 * client (not even staff) can set a price, a total or a status.
 */
import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  CHECKOUT_INIT_MAX_PER_IP,
  CHECKOUT_INIT_MAX_PER_USER,
  CHECKOUT_INIT_WINDOW_MS,
} from '../../shared/payments'
import { PAYMENT_TEXT } from '../../shared/texts'
import { idParam, registerCollection } from '../collections/routes'
import { ApiError, badRequest } from '../errors'
import { scopedKey } from '../http/idempotency'
import { createRateWindow } from '../http/rate-window'
import { collectionTable, type RouteTable, route } from '../http/route-table'
import { READ_ALSO } from '../realtime/visibility'
import type { Services } from '../services'
import { idempotent } from '../storage/idempotent'
import { isPlainObject } from '../store/doc'
import { discountPreparer, productPreparer } from './catalog'
import {
  changeDiscount,
  checkoutView,
  initCheckout,
  parseCode,
  parseInit,
  transactionForToken,
} from './checkout'
import { holdForPay } from './hold'
import {
  applyProviderRefunds,
  refundTransaction,
  TRANSACTIONS,
  type TxDoc,
  updateTransaction,
} from './ledger'
import { PaymentError, type PaymentProvider } from './providers'

/** Payments (issue 14): products, discounts, transactions, and the public checkout. */
export const PAYMENTS_ROUTES: RouteTable = [
  ...collectionTable('products'),
  ...collectionTable('discounts'),
  // Reading a transaction: transactions/{id}:r or payments/{id}:r (READ_ALSO); deleting refunds.
  ...collectionTable(
    'transactions',
    { list: 'computed', read: 'computed', delete: 'computed' },
    {
      list: 'transactions:r or payments:r',
      read: 'transactions/{id}:r or payments/{id}:r',
      delete: 'transactions/{id}:d or payments/{id}:u',
    },
  ),
  route('POST', '/api/transactions/init/:id', 'public', '- (the checkout id)'),
  route('GET', '/api/transactions/checkout/:id', 'public', '-'),
  route('POST', '/api/transactions/checkout/:id/discount', 'public', '-'),
  route('POST', '/api/transactions/checkout/:id/pay', 'public', '-'),
  route('POST', '/api/transactions/checkout/:id/confirm', 'public', '-'),
  route('POST', '/api/transactions/notify/:id', 'public', "- (the provider's signature)"),
]

export async function paymentsModule(api: FastifyInstance, services: Services): Promise<void> {
  const { store, config } = services
  // The providers are made once for the server (payments/service.ts), shared with the checkout sweeper.
  const { active, providerOf, settle } = services.payments
  const providers = services.payments.byName

  registerCollection(api, services, { name: 'products', prepare: productPreparer(store) })
  registerCollection(api, services, { name: 'discounts', prepare: discountPreparer(store) })
  registerCollection(api, services, {
    name: 'transactions',
    readAlso: READ_ALSO.transactions,
    prepare: () => {
      throw new ApiError('method_not_allowed', PAYMENT_TEXT.transactionWrite)
    },
    deleteRoute: {
      access: (req) => [`transactions/${idParam(req)}:d`, `payments/${idParam(req)}:u`],
      handler: async (req, reply) => {
        const id = idParam(req)
        const amount = refundAmount(req)
        const key = req.headers['idempotency-key']
        const refundId =
          typeof key === 'string' && key
            ? `r-${crypto.createHash('sha256').update(scopedKey(req, key)).digest('hex').slice(0, 24)}`
            : `r-${crypto.randomBytes(12).toString('hex')}`
        // The request hash covers the body, not the query: the amount goes in, so one key reused for
        // another amount is refused (400) instead of answering the first refund.
        req.body = { amount: amount ?? null }
        return idempotent(services, req, reply, async () => {
          const tx = await refundTransaction(store, providerOf, id, amount, req.auth.user, refundId)
          return { status: 200, body: tx }
        })
      },
    },
  })

  // init is public and each call holds a code's use for a while: limited per IP and per signed-in user.
  const limits = config.checkoutInitLimit ?? {
    perIp: CHECKOUT_INIT_MAX_PER_IP,
    perUser: CHECKOUT_INIT_MAX_PER_USER,
  }
  const perIp = createRateWindow({ max: limits.perIp, windowMs: CHECKOUT_INIT_WINDOW_MS })
  const perUser = createRateWindow({ max: limits.perUser, windowMs: CHECKOUT_INIT_WINDOW_MS })

  api.post('/transactions/init/:id', { config: { access: 'public' } }, async (req, reply) => {
    // Checked and counted with no await between, so parallel calls cannot share the last slot.
    const user = req.auth.user
    const wait = Math.max(perIp.wait(req.ip), user ? perUser.wait(user) : 0)
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000)
      reply.header('retry-after', String(seconds))
      throw new ApiError('too_many_requests', PAYMENT_TEXT.initRateLimited(seconds))
    }
    perIp.hit(req.ip)
    if (user) perUser.hit(user)
    const input = parseInit(idParam(req), req.body)
    const { tx, token } = await initCheckout(store, active, input)
    return reply.status(201).send({
      token,
      checkout: `/ui/checkout?token=${encodeURIComponent(token)}`,
      transaction: checkoutView(tx),
    })
  })

  /** The transaction the request's X-Checkout-Token opens; it must be the one in the path. */
  const checkoutTx = async (req: FastifyRequest): Promise<TxDoc> => {
    const tx = await transactionForToken(store, req.headers['x-checkout-token'])
    if (tx._id !== idParam(req)) throw new ApiError('not_found', PAYMENT_TEXT.checkoutTokenInvalid)
    return tx
  }
  const view = async (tx: TxDoc, extra: Record<string, unknown> = {}) => ({
    ...checkoutView(tx),
    ...(await providerOf(tx).publicInfo()),
    ...extra,
  })

  api.get('/transactions/checkout/:id', { config: { access: 'public' } }, async (req) =>
    view(await checkoutTx(req)),
  )

  api.post('/transactions/checkout/:id/discount', { config: { access: 'public' } }, async (req) => {
    const tx = await checkoutTx(req)
    const body = isPlainObject(req.body) ? req.body : {}
    return view(await changeDiscount(store, tx._id, parseCode(body.code)))
  })

  api.post('/transactions/checkout/:id/pay', { config: { access: 'public' } }, async (req) => {
    // The code's use is renewed, or taken again after an expired hold (409 when it is gone).
    const tx = await holdForPay(store, (await checkoutTx(req))._id)
    const provider = providerOf(tx)
    if (tx.total === 0) return view((await settle(tx._id, { state: 'succeeded', amount: 0 }, null)).tx)
    const started = await asApiError(() =>
      provider.start({
        transaction: tx._id,
        amount: tx.total,
        currency: tx.currency,
        existing: tx.providerRef,
        key: `${tx.providerRef ? 'update' : 'create'}-${tx._id}-${tx.total}`,
      }),
    )
    if (provider.chargeTestCard) {
      const body = isPlainObject(req.body) ? req.body : {}
      const card = typeof body.card === 'string' ? body.card : ''
      // The number is compared with the test numbers and dropped: never stored, never logged.
      const report = await asApiError(async () =>
        provider.chargeTestCard!(started.providerRef, card, tx.total),
      )
      return view((await settle(tx._id, report, started.providerRef)).tx)
    }
    const recorded = await updateTransaction(store, tx._id, null, (t) =>
      t.providerRef === started.providerRef
        ? null
        : {
            ...t,
            providerRef: started.providerRef,
            events: [
              ...t.events,
              { time: new Date().toISOString(), type: 'payment_started', source: 'server', amount: t.total },
            ],
          },
    )
    return view(recorded.tx, { clientSecret: started.clientSecret })
  })

  api.post('/transactions/checkout/:id/confirm', { config: { access: 'public' } }, async (req) => {
    const tx = await checkoutTx(req)
    if (!tx.providerRef || (tx.status !== 'pending' && tx.status !== 'failed')) return view(tx)
    const ref = tx.providerRef
    const report = await asApiError(() => providerOf(tx).status(ref))
    return view((await settle(tx._id, report, ref)).tx)
  })

  // The webhook needs its body as sent: the signature covers those bytes, not a re-serialised object.
  await api.register(async (raw) => {
    raw.removeContentTypeParser('application/json')
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    )
    raw.post('/transactions/notify/:id', { config: { access: 'public' } }, async (req) => {
      const provider = providers.get(idParam(req))
      if (!provider?.webhook) throw new ApiError('not_found', PAYMENT_TEXT.unknownProvider(idParam(req)))
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      let events: ReturnType<NonNullable<PaymentProvider['webhook']>>
      try {
        events = provider.webhook(body, req.headers)
      } catch (err) {
        if (err instanceof PaymentError) throw badRequest(PAYMENT_TEXT.signatureInvalid)
        throw err
      }
      let applied = 0
      for (const e of events) {
        const id = e.transaction ?? (await transactionOfPayment(e.providerRef))
        if (!id) continue
        try {
          const result =
            e.kind === 'refund'
              ? await applyProviderRefunds(store, id, e.refundedTotal, e.id)
              : await settle(id, e.report, e.providerRef, 'webhook', e.id)
          if (result.changed) applied++
        } catch (err) {
          // Another shop's payment on the same account, or a deleted record: acknowledged, so the
          // provider stops retrying; there is nothing here to update.
          if (!(err instanceof ApiError && err.status === 404)) throw err
        }
      }
      return { received: true, applied }
    })
  })

  /** Our transaction for a provider payment whose event carried no metadata. */
  async function transactionOfPayment(providerRef: string): Promise<string | null> {
    const { items } = await store.list(TRANSACTIONS, { filter: { providerRef }, limit: 1 })
    return items[0]?._id ?? null
  }
}

/** The refund amount from `?amount=` (or a JSON body's `amount`); undefined refunds all that is left. */
function refundAmount(req: FastifyRequest): number | undefined {
  const query = req.query as Record<string, unknown>
  const body = isPlainObject(req.body) ? req.body : {}
  const raw = query.amount ?? body.amount
  if (raw === undefined || raw === '') return undefined
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0)
    throw badRequest(PAYMENT_TEXT.refundAmountInvalid)
  return n
}

/** A provider's refusal as the API's: a declined card or bad request is 400, an outage 502. */
async function asApiError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err
    throw new ApiError(err.declined ? 'bad_request' : 'bad_gateway', err.message)
  }
}
