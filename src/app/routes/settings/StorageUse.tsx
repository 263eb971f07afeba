/**
 * How much of this device's storage the console uses (navigator.storage.estimate through the sync
 * layer's storage-info) and whether the browser promised to keep it. Offline work lives here, so a
 * nearly full quota deserves a warning before writes start failing.
 */
import { useEffect, useState } from 'react'
import { SCREENS_TEXT } from '../../../shared/texts'
import { formatBytes } from '../../components/format'
import { type StorageInfo, useEngine } from '../../data/sync-context'

/** Past this share of the quota, writes may soon fail: say so. */
const WARN_RATIO = 0.8

export function StorageUse() {
  const engine = useEngine()
  const [info, setInfo] = useState<StorageInfo | null>(null)
  useEffect(() => {
    let live = true
    void engine.storage().then((i) => live && setInfo(i))
    return () => {
      live = false
    }
  }, [engine])
  if (!info) return <p className="muted">Measuring…</p>
  if (info.usage === null || info.quota === null)
    return <p className="muted">{SCREENS_TEXT.storageUnknown}</p>
  const ratio = info.quota ? info.usage / info.quota : 0
  return (
    <div className="storage-use">
      <p>
        <strong>{formatBytes(info.usage)}</strong> used of {formatBytes(info.quota)} available to this site
        {ratio < 0.0001 ? ' (less than 0.01%)' : ` (${(ratio * 100).toFixed(ratio < 0.01 ? 2 : 1)}%)`}
      </p>
      <meter
        min={0}
        max={1}
        low={0.6}
        high={WARN_RATIO}
        optimum={0}
        value={ratio}
        aria-label="Storage used"
      />
      <p className="field-hint">
        {info.persisted === true
          ? 'The browser keeps this data even when the device runs low on space.'
          : info.persisted === false
            ? 'The browser may clear this data when the device runs low on space; unsent changes would be lost.'
            : 'The browser does not say whether it keeps this data under storage pressure.'}
      </p>
      {ratio >= WARN_RATIO && (
        <p className="notice notice-warning">
          Storage is nearly full: changes made offline may fail to save.
        </p>
      )}
    </div>
  )
}
