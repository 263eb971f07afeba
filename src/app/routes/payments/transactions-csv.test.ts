/** The Transactions CSV: major units per the record's currency, and no formula from a customer's name. */
import { describe, expect, it } from 'vitest'
import type { SyncDoc } from '../../../db/types'
import { csvRow, transactionsCsv } from './transactions-csv'

const doc = {
  _id: 'tx1',
  _rev: 1,
  _created: '2026-03-02T12:00:00.000Z',
  _updated: '2026-03-02T12:00:00.000Z',
  _updatedBy: null,
  items: [{ product: 'p', name: 'Poster', quantity: 2, unitPrice: 450, amount: 900 }],
  currency: 'JPY',
  subtotal: 900,
  discount: { code: 'TEN', amount: 90 },
  total: 810,
  paid: 810,
  refunded: 0,
  status: 'paid',
  provider: 'test',
  test: true,
  customer: { name: '@SUM(A1:A9)', email: 'x@example.com' },
} as SyncDoc

describe('transactions CSV', () => {
  it('writes amounts in the currency’s major units', () => {
    expect(csvRow(doc)).toMatchObject({ subtotal: '900', discount: '90', total: '810', items: '2 × Poster' })
    expect(csvRow({ ...doc, currency: 'EUR' })).toMatchObject({ total: '8.10', discount_code: 'TEN' })
  })

  it('neutralises a formula typed as a customer name', async () => {
    const text = await (await transactionsCsv([doc])).text()
    expect(text).toContain(`,"'@SUM(A1:A9)",x@example.com,`)
    expect(text).not.toContain(',@SUM')
  })
})
