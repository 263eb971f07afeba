/**
 * The notifications switch of the avatar menu (SPEC §2). It shows the browser's real subscription and,
 * when the browser cannot subscribe, is disabled and says why.
 */
import { Bell, BellOff } from 'lucide-react'
import { PWA_TEXT } from '../../shared/texts'
import { usePushToggle } from './use-push'

export function PushToggle() {
  const { busy, enabled, reason, error, toggle } = usePushToggle()
  const hint = error ?? reason ?? (enabled ? PWA_TEXT.notificationsOn : PWA_TEXT.notificationsOff)
  const Icon = enabled ? Bell : BellOff
  return (
    <label className="switch-row" title={hint}>
      <Icon size={18} aria-hidden="true" />
      <span className="switch-text">
        {PWA_TEXT.notifications}
        <small role={error ? 'alert' : undefined}>{hint}</small>
      </span>
      <input
        type="checkbox"
        role="switch"
        className="switch"
        checked={enabled}
        aria-checked={enabled}
        aria-busy={busy}
        disabled={busy || !!reason}
        onChange={() => void toggle()}
      />
    </label>
  )
}
