/** The Transactions screen's reading of mirrored records: filters, what is left to refund, day totals. */
import { describe, expect, it } from 'vitest'
import type { SyncDoc } from '../../../db/types'
import { dayTotals, NO_FILTER, refundable, txFilter } from './transaction-view'

let n = 0
const tx = (over: Record<string, unknown>): SyncDoc => ({
  _id: `t${++n}`,
  _rev: 1,
  _created: '2026-03-02T12:00:00',
  _updated: '2026-03-02T12:00:00',
  _updatedBy: null,
  currency: 'EUR',
  status: 'paid',
  total: 1000,
  paid: 1000,
  refunded: 0,
  refunds: [],
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  ...over,
})

describe('transaction filters', () => {
  it('filters by status, amount in major units of its own currency, customer and local day', () => {
    const docs = [
      tx({ total: 1250 }),
      tx({ total: 900, currency: 'JPY', status: 'refunded' }),
      tx({ total: 5000, customer: { email: 'bob@example.com' }, _created: '2026-03-05T09:00:00' }),
    ]
    const ids = (f: Partial<typeof NO_FILTER>) =>
      docs.filter(txFilter({ ...NO_FILTER, ...f })).map((d) => d._id)
    const [a, b, c] = docs.map((d) => d._id)
    expect(ids({})).toEqual([a, b, c])
    expect(ids({ status: 'refunded' })).toEqual([b])
    // Major units of each record's own currency, compared exactly: ¥900 is more than 12.50, €12.50 is not.
    expect(ids({ min: '12.5' })).toEqual([a, b, c])
    expect(ids({ max: '12.50' })).toEqual([a])
    expect(ids({ customer: 'LOVELACE' })).toEqual([a, b])
    expect(ids({ from: '2026-03-03' })).toEqual([c])
    expect(ids({ to: '2026-03-02' })).toEqual([a, b])
  })
})

describe('refundable', () => {
  it('is what was paid minus succeeded and in-flight refunds', () => {
    expect(refundable(tx({}))).toBe(1000)
    expect(
      refundable(
        tx({
          refunded: 300,
          refunds: [
            { amount: 300, status: 'succeeded' },
            { amount: 200, status: 'pending' },
            { amount: 100, status: 'failed' },
          ],
        }),
      ),
    ).toBe(500)
    expect(refundable(tx({ status: 'pending', paid: 0 }))).toBe(0)
  })
})

describe('day totals', () => {
  it('sums net takings per local day and currency and draws empty days between as zero', () => {
    const totals = dayTotals([
      tx({ paid: 1000, refunded: 250 }),
      tx({ paid: 500, _created: '2026-03-02T23:59:00' }),
      tx({ paid: 700, _created: '2026-03-04T08:00:00' }),
      tx({ paid: 300, currency: 'USD', _created: '2026-03-04T08:00:00' }),
      tx({ paid: 0, status: 'pending', _created: '2026-03-09T08:00:00' }),
    ])
    expect(totals.days).toEqual(['2026-03-02', '2026-03-03', '2026-03-04'])
    expect(totals.series).toEqual([
      { currency: 'EUR', net: [1250, 0, 700] },
      { currency: 'USD', net: [0, 0, 300] },
    ])
  })
})
