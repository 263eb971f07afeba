/**
 * How a screen shows a write the session may not make (docs/decisions/screens.md): the control stays
 * in place but disabled with aria-disabled (still focusable, so keyboard and screen-reader users meet
 * it and its reason) and says why on hover; a short note in place says what the user lacks.
 */
import { Lock } from 'lucide-react'
import type { ReactNode } from 'react'
import { PERMISSION_UI_TEXT } from '../../shared/texts'
import './read-only.css'

/** "Read-only: you need data/contacts:u to edit this document." */
export function ReadOnlyNote({ id, needed, action }: { id?: string; needed: string; action: string }) {
  return (
    <p className="notice readonly-note" id={id} data-testid="readonly-note">
      <Lock size={14} aria-hidden="true" /> {PERMISSION_UI_TEXT.readOnly(needed, action)}
    </p>
  )
}

/** A button the session may not use: aria-disabled, its reason as title (also its accessible description). */
export function DeniedButton({
  reason,
  className,
  children,
}: {
  reason: string
  className: string
  children: ReactNode
}) {
  return (
    <button
      type="button"
      className={`${className} is-denied`}
      aria-disabled="true"
      title={reason}
      onClick={(e) => e.preventDefault()}
    >
      {children}
    </button>
  )
}
