/**
 * Money (shared by the console and the server's messages). Prices typed in major units ("12.34" EUR) ↔ stored integer minor units (1234), by the currency's
 * fraction digits (2 for EUR, 0 for JPY, 3 for BHD). Done on the digits as text, never by multiplying
 * a float: 1.15 * 100 is 114.99999999999999 in binary floating point, "1.15" → 115 here.
 */

/** Fraction digits of an ISO 4217 code (Intl knows them); 2 when the code is unknown or malformed. */
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number
  } catch {
    return 2
  }
}

/**
 * "12.34" → 1234 for EUR; null when the text is not a plain non-negative amount with at most the
 * currency's fraction digits ("12.345" EUR, "1.5" JPY, "-1", "1e3"). A comma is read as the decimal
 * point, so "12,34" works on keyboards that type one.
 */
export function toMinor(input: string, currency: string): number | null {
  const digits = fractionDigits(currency)
  const m = input
    .trim()
    .replace(',', '.')
    .match(/^(\d+)(?:\.(\d*))?$/)
  if (!m) return null
  const whole = m[1]!
  const frac = m[2] ?? ''
  if (frac.length > digits) return null
  const minor = Number(whole + frac.padEnd(digits, '0'))
  return Number.isSafeInteger(minor) ? minor : null
}

/** 1234 → "12.34" for EUR, 500 → "500" for JPY: the editor's text for a stored amount. */
export function fromMinor(minor: number, currency: string): string {
  const digits = fractionDigits(currency)
  const sign = minor < 0 ? '-' : ''
  const s = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0')
  return digits ? `${sign}${s.slice(0, -digits)}.${s.slice(-digits)}` : `${sign}${s}`
}

/** 1234 EUR → "€12.34" in the user's locale, for lists; the exact digits come from fromMinor. */
export function formatMoney(minor: unknown, currency: unknown): string {
  if (typeof minor !== 'number' || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return '—'
  const text = fromMinor(minor, currency)
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: fractionDigits(currency),
    }).format(Number(text))
  } catch {
    return `${text} ${currency}`
  }
}
