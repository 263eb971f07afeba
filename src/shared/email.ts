/**
 * The e-mail format check of SPEC §5, shared so the console's forms and the server agree. Deliberately
 * loose (one @, no spaces, a dotted domain, at most 254 characters, RFC 5321's path limit): stricter
 * patterns reject real addresses, and only a mail that arrives proves an address works.
 */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export function isValidEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value)
}
