/**
 * "A new version is available" with Reload (and Later). Rendered as a shell overlay; it appears only
 * when a new service worker is waiting, and Reload goes through the unsaved-changes question.
 */
import { useSyncExternalStore } from 'react'
import { PWA_TEXT } from '../../shared/texts'
import { applyUpdate, dismissUpdate, updateStore } from './update-store'
import './pwa.css'

export function UpdateBanner() {
  const { available, dismissed } = useSyncExternalStore(updateStore.subscribe, updateStore.get)
  if (!available || dismissed) return null
  return (
    <div className="update-banner" role="status" aria-live="polite">
      <span>{PWA_TEXT.updateAvailable}</span>
      <button type="button" className="update-reload" onClick={() => void applyUpdate()}>
        {PWA_TEXT.reload}
      </button>
      <button type="button" className="update-later" onClick={dismissUpdate}>
        {PWA_TEXT.updateLater}
      </button>
    </div>
  )
}
