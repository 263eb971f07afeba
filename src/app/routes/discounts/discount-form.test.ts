/** The discount editor's form → record: exact minor units, the server's messages, changed fields only. */
import { describe, expect, it } from 'vitest'
import { discountWindowInverted } from '../../../shared/payments'
import { PAYMENT_TEXT } from '../../../shared/texts'
import { changedFields } from '../../components/catalog/catalog-kind'
import { discountFields, discountFormOf } from './discount-form'

const form = (over: Partial<ReturnType<typeof discountFormOf>>) => ({ ...discountFormOf(null), ...over })

describe('discount form', () => {
  it('stores a fixed amount in minor units, and drops the percent', () => {
    expect(discountFields(form({ kind: 'fixed', value: '2.5', currency: 'eur' }))).toMatchObject({
      fields: { amount: 250, currency: 'EUR', percent: null },
    })
  })

  it("answers with the server's messages, every field's at once", () => {
    expect(discountFields(form({ value: '101' }))).toMatchObject({ error: PAYMENT_TEXT.percentInvalid })
    expect(discountFields(form({ kind: 'fixed', value: '0' }))).toMatchObject({
      errors: { value: PAYMENT_TEXT.amountInvalid },
    })
    expect(discountFields(form({ value: '0', maxUses: '0', expires: '2027-13-45' }))).toEqual({
      error: PAYMENT_TEXT.percentInvalid,
      errors: {
        value: PAYMENT_TEXT.percentInvalid,
        expires: PAYMENT_TEXT.dateInvalid('expires'),
        maxUses: PAYMENT_TEXT.maxUsesInvalid,
      },
    })
  })

  it('refuses a window that ends before it starts, with the rule the server uses', () => {
    expect(discountFields(form({ value: '5', starts: '2027-06-02', expires: '2027-06-01' }))).toMatchObject({
      errors: { expires: PAYMENT_TEXT.windowInverted },
    })
    // expires is inclusive of its day: a one-day window is fine.
    expect(discountFields(form({ value: '5', starts: '2027-06-01', expires: '2027-06-01' }))).toHaveProperty(
      'fields',
    )
    expect(discountWindowInverted('2027-06-01T12:00:00Z', '2027-06-01')).toBe(false)
    expect(discountWindowInverted('2027-06-02', '2027-06-01T23:59:59Z')).toBe(true)
    expect(discountWindowInverted('2027-06-02', undefined)).toBe(false)
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
