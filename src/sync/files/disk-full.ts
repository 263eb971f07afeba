/** A write refused because the device's storage is full, however Dexie or the browser wraps it. */
export function isQuotaError(e: unknown): boolean {
  for (let err = e as { name?: string; inner?: unknown } | undefined, i = 0; err && i < 4; i++) {
    if (err.name === 'QuotaExceededError' || err.name === 'NS_ERROR_DOM_QUOTA_REACHED') return true
    err = err.inner as typeof err
  }
  return false
}
