/**
 * The one modal confirmation, on the native <dialog> element: showModal() gives the focus trap, the
 * inert background and Escape (its `cancel` event) for free, and the browser's top layer keeps it above
 * the shell. The cancel button gets focus first, so an accidental Enter never deletes anything.
 */
import { useEffect, useId, useRef, useSyncExternalStore } from 'react'
import './feedback.css'
import { confirmStore } from './confirm-store'

export function ConfirmDialogHost() {
  const request = useSyncExternalStore(confirmStore.subscribe, confirmStore.current, confirmStore.current)
  const ref = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const textId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (request && !dialog.open) {
      dialog.showModal()
      cancelRef.current?.focus()
    }
    if (!request && dialog.open) dialog.close()
  }, [request])

  const answer = (ok: boolean) => {
    if (request) confirmStore.answer(request.id, ok)
  }

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click mirrors Escape, which the dialog's cancel event handles.
    <dialog
      ref={ref}
      className="mc-dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault()
        answer(false)
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) answer(false)
      }}
    >
      {request && (
        <div className="mc-dialog-body">
          <h2 id={titleId} className="mc-dialog-title">
            {request.title}
          </h2>
          <p id={textId}>{request.text}</p>
          <div className="mc-dialog-actions">
            <button ref={cancelRef} type="button" className="mc-button" onClick={() => answer(false)}>
              {request.cancelLabel}
            </button>
            <button
              type="button"
              className={request.danger ? 'mc-button mc-button-danger' : 'mc-button mc-button-primary'}
              onClick={() => answer(true)}
            >
              {request.confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  )
}
