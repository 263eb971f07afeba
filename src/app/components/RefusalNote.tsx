/**
 * A refused queued write, shown where it was made (use-save-refusal.ts): next to the field the server
 * named (`field`), or near the Save button for a refusal that names none (`field={null}`). Renders
 * nothing for another field's refusal, so a screen can place one per field it knows.
 */
import { REFUSAL_TEXT } from '../../shared/texts'
import type { SaveRefusal } from '../data/use-save-refusal'

export function RefusalNote({
  refusal,
  field,
  fields,
  words = REFUSAL_TEXT.refused,
  discardLabel = REFUSAL_TEXT.discard,
}: {
  refusal: SaveRefusal | null
  /** The field this note stands beside; null: the note for refusals that name no known field. */
  field: string | null
  /** With field null: the fields that have notes of their own elsewhere on the screen. */
  fields?: readonly string[]
  /** The screen's own words around the server's (a send is "not sent", not "not saved"). */
  words?: (message: string) => string
  discardLabel?: string
}) {
  if (!refusal) return null
  const mine = field === null ? !refusal.field || !fields?.includes(refusal.field) : refusal.field === field
  if (!mine) return null
  return (
    <div className="field-error refusal-note" role="alert" data-testid="refusal-note">
      <span>{words(refusal.message)}</span>{' '}
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => void refusal.discard()}
      >
        {discardLabel}
      </button>
    </div>
  )
}
