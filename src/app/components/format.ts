/**
 * Small display formats shared by the data, logs and settings screens: byte sizes (SPEC §9: units to
 * YB in steps of 1024), the {{TIMESTAMP}} file-name token (src/shared/storage.ts, re-exported for the screens), and a
 * short one-line preview of any JSON value for table cells (cell-preview.ts, re-exported).
 */
import { BYTE_STEP, BYTE_UNITS } from '../../shared/constants'
import { stampFileName } from '../../shared/storage'

export function formatBytes(bytes: number, digits = 1): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${BYTE_UNITS[0]}`
  let i = 0
  let n = bytes
  while (n >= BYTE_STEP && i < BYTE_UNITS.length - 1) {
    n /= BYTE_STEP
    i++
  }
  return `${i === 0 ? n : n.toFixed(digits).replace(/\.0+$/, '')} ${BYTE_UNITS[i]}`
}

export { preview } from './cell-preview'
export { stampFileName }

/** Offers a Blob as a download under the given (stamped) name. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = stampFileName(name)
  document.body.append(a)
  a.click()
  a.remove()
  // The download has started by now; revoking later keeps slow browsers from losing it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
