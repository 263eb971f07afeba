/**
 * Time-based one-time passwords (RFC 6238) with otpauth. Secrets live only in the secret store: a
 * `totp-pending` secret while the user sets up their app, moved to `totp` once they prove it works
 * with a code. The presence of the `totp` secret is what makes login ask for a code; the user
 * document's `totp: true` only mirrors it for the console.
 *
 * A code is accepted one step either side of now (clock drift), and at most once: the last accepted
 * time step is remembered, as RFC 6238 §5.2 asks, so a code seen over a shoulder can't be replayed.
 */
import * as OTPAuth from 'otpauth'
import type { SecretStore } from '../store/types'

export const TOTP_SECRET = 'totp'
export const TOTP_PENDING_SECRET = 'totp-pending'
/** Last accepted time step per user, for replay protection. */
const TOTP_LAST_STEP = 'totp-last-step'
/** Steps either side of now that still count: 30 s of clock drift each way. */
const WINDOW = 1

function totpFor(secret: string, user = '', issuer = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label: user, secret: OTPAuth.Secret.fromBase32(secret) })
}

/** Time step a code matches, or null. Codes are digits only; anything else fails without a lookup. */
function matchStep(secret: string, code: string): number | null {
  const token = code.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(token)) return null
  const totp = totpFor(secret)
  const delta = totp.validate({ token, window: WINDOW })
  return delta === null ? null : totp.counter() + delta
}

export async function hasTotp(secrets: SecretStore, user: string): Promise<boolean> {
  return (await secrets.get(TOTP_SECRET, user)) !== null
}

/** Starts set-up: a fresh pending secret and the otpauth:// URI an authenticator app scans. */
export async function beginTotp(
  secrets: SecretStore,
  user: string,
  issuer: string,
): Promise<{ secret: string; uri: string }> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32
  await secrets.set(TOTP_PENDING_SECRET, user, secret)
  return { secret, uri: totpFor(secret, user, issuer).toString() }
}

export type ConfirmResult = 'enabled' | 'invalid' | 'no-pending'

/** Finishes set-up when the code matches the pending secret. */
export async function confirmTotp(secrets: SecretStore, user: string, code: string): Promise<ConfirmResult> {
  const pending = await secrets.get(TOTP_PENDING_SECRET, user)
  if (!pending) return 'no-pending'
  const step = matchStep(pending, code)
  if (step === null) return 'invalid'
  await secrets.set(TOTP_SECRET, user, pending)
  await secrets.delete(TOTP_PENDING_SECRET, user)
  // The confirming code is used up like a login code: seen on the set-up screen, it must not log in.
  await secrets.set(TOTP_LAST_STEP, user, String(step))
  return 'enabled'
}

/** Checks a login code against the enabled secret and uses it up. */
export async function verifyTotp(secrets: SecretStore, user: string, code: string): Promise<boolean> {
  const secret = await secrets.get(TOTP_SECRET, user)
  if (!secret) return false
  const step = matchStep(secret, code)
  if (step === null) return false
  const last = Number((await secrets.get(TOTP_LAST_STEP, user)) ?? -1)
  if (step <= last) return false
  await secrets.set(TOTP_LAST_STEP, user, String(step))
  return true
}

export async function removeTotp(secrets: SecretStore, user: string): Promise<void> {
  await secrets.delete(TOTP_SECRET, user)
  await secrets.delete(TOTP_PENDING_SECRET, user)
  await secrets.delete(TOTP_LAST_STEP, user)
}
