/** Major ↔ minor unit conversion: exact on the digits, by each currency's fraction digits. */
import { describe, expect, it } from 'vitest'
import { fractionDigits, fromMinor, toMinor } from './money'

describe('price conversion', () => {
  it('knows the fraction digits of EUR, JPY and BHD', () => {
    expect([fractionDigits('EUR'), fractionDigits('JPY'), fractionDigits('BHD')]).toEqual([2, 0, 3])
  })

  it('turns typed major units into exact minor units', () => {
    expect(toMinor('12.34', 'EUR')).toBe(1234)
    // Float multiplication gives 114.99999999999999 and 1004.9999999999999 here.
    expect(toMinor('1.15', 'EUR')).toBe(115)
    expect(toMinor('10.05', 'USD')).toBe(1005)
    expect(toMinor('0.29', 'EUR')).toBe(29)
    expect(toMinor('12', 'EUR')).toBe(1200)
    expect(toMinor('12.3', 'EUR')).toBe(1230)
    expect(toMinor('12,34', 'EUR')).toBe(1234)
    expect(toMinor('500', 'JPY')).toBe(500)
    expect(toMinor('1.234', 'BHD')).toBe(1234)
  })

  it('refuses more digits than the currency has, signs and exponents', () => {
    for (const [input, currency] of [
      ['12.345', 'EUR'],
      ['1.5', 'JPY'],
      ['-1', 'EUR'],
      ['1e3', 'EUR'],
      ['', 'EUR'],
      ['abc', 'EUR'],
    ]) {
      expect(toMinor(input!, currency!)).toBeNull()
    }
  })

  it('shows stored minor units as the text the editor starts from', () => {
    expect(fromMinor(1234, 'EUR')).toBe('12.34')
    expect(fromMinor(5, 'EUR')).toBe('0.05')
    expect(fromMinor(0, 'EUR')).toBe('0.00')
    expect(fromMinor(500, 'JPY')).toBe('500')
    expect(fromMinor(1234, 'BHD')).toBe('1.234')
    for (const n of [1, 99, 115, 1005, 123456789]) expect(toMinor(fromMinor(n, 'EUR'), 'EUR')).toBe(n)
  })
})
