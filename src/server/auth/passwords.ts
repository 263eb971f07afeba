/**
 * Password hashing with scrypt from node:crypto (no native dependency). The stored form carries its
 * parameters, `scrypt$N$r$p$salt$hash`, so they can be raised later without breaking old hashes.
 */
import crypto from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

const N = 16384
const R = 8
const P = 1
const KEYLEN = 32

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P })
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check so a missing user can't be told apart by timing.
    await scrypt(password, crypto.randomBytes(16), KEYLEN, { N, r: R, p: P })
    return false
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  })
  return crypto.timingSafeEqual(actual, expected)
}

/**
 * A short fingerprint of a stored hash (or of "no password"), put in reset tokens so a token stops
 * working once the password it was issued against changes. One-way: it reveals nothing of the hash.
 */
export function passwordFingerprint(stored: string | null): string {
  return crypto
    .createHash('sha256')
    .update(`reset-bind\u0000${stored ?? ''}`)
    .digest('base64url')
    .slice(0, 22)
}

/** Secret-store kind for password hashes, keyed by user id. */
export const PASSWORD_SECRET = 'password'
