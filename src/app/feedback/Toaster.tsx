/**
 * Renders the toast store: a stack at the bottom right, clear of the toolbar and the page heading's
 * buttons (feedback.css), each with title, message, a close button and a bar showing the time left.
 * Errors and warnings are `role="alert"` (announced at once), successes and pending work `role="status"`. Hovering
 * or focusing a toast pauses its timer (SPEC §4), so it can be read or its text copied.
 */
import { useSyncExternalStore } from 'react'
import { Link } from 'wouter'
import { TOAST_TIMEOUT_MS } from '../../shared/constants'
import { FEEDBACK_TEXT } from '../../shared/texts'
import './feedback.css'
import { toast as defaultStore, type Toast, type ToastStore } from './toast-store'

export function Toaster({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.list, store.list)
  return (
    <section className="mc-toaster" aria-label="Notifications">
      {toasts.map((t) => (
        <ToastCard key={t.id} toast={t} store={store} />
      ))}
    </section>
  )
}

function ToastCard({ toast, store }: { toast: Toast; store: ToastStore }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover only pauses the timer; the close button is the control.
    <div
      className="mc-toast"
      role={toast.kind === 'success' || toast.kind === 'info' ? 'status' : 'alert'}
      data-kind={toast.kind}
      data-colour={toast.colour}
      data-paused={toast.paused || undefined}
      style={{ ['--mc-toast-colour' as string]: toast.colour }}
      onMouseEnter={() => store.pause(toast.id)}
      onMouseLeave={() => store.resume(toast.id)}
      onFocus={() => store.pause(toast.id)}
      onBlur={() => store.resume(toast.id)}
    >
      <div className="mc-toast-text">
        <strong className="mc-toast-title">{toast.title}</strong>
        <span className="mc-toast-message">{toast.message}</span>
        {toast.link && (
          <Link href={toast.link.href} className="mc-toast-link">
            {toast.link.label}
          </Link>
        )}
      </div>
      <button
        type="button"
        className="mc-icon-button"
        aria-label={FEEDBACK_TEXT.close}
        onClick={() => store.dismiss(toast.id)}
      >
        ×
      </button>
      <div className="mc-toast-bar" style={{ width: `${(toast.remaining / TOAST_TIMEOUT_MS) * 100}%` }} />
    </div>
  )
}
