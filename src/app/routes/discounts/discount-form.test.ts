/** The discount editor's form → record: exact minor units, the server's messages, changed fields only. */
import { describe, expect, it } from 'vitest'
import { PAYMENT_TEXT } from '../../../shared/messages'
import { changedFields } from '../catalog/catalog-kind'
import { discountFields, discountFormOf } from './discount-form'

const form = (over: Partial<ReturnType<typeof discountFormOf>>) => ({ ...discountFormOf(null), ...over })

describe('discount form', () => {
  it('stores a fixed amount in minor units, and drops the percent', () => {
    expect(discountFields(form({ kind: 'fixed', value: '2.5', currency: 'eur' }))).toMatchObject({
      fields: { amount: 250, currency: 'EUR', percent: null },
    })
  })

  it("answers with the server's messages", () => {
    expect(discountFields(form({ value: '101' }))).toEqual({ error: PAYMENT_TEXT.percentInvalid })
    expect(discountFields(form({ kind: 'fixed', value: '0' }))).toEqual({ error: PAYMENT_TEXT.amountInvalid })
    expect(discountFields(form({ value: '5', maxUses: '0' }))).toEqual({ error: PAYMENT_TEXT.maxUsesInvalid })
    expect(discountFields(form({ value: '5', expires: '2027-13-45' }))).toEqual({
      error: PAYMENT_TEXT.dateInvalid('expires'),
    })
  })

  it('reads a stored code back and sends only what changed, never uses', () => {
    const doc = { _id: 'A', _rev: '1', percent: 10, uses: 3, maxUses: 5, products: ['p2', 'p1'] }
    const before = discountFormOf(doc as never)
    expect(before).toMatchObject({ kind: 'percent', value: '10', maxUses: '5', products: ['p1', 'p2'] })
    const a = discountFields(before)
    const b = discountFields({ ...before, active: false })
    if (!('fields' in a) || !('fields' in b)) throw new Error('valid forms')
    expect(changedFields(a.fields, b.fields)).toEqual({ active: false })
  })
})
