/**
 * The save's outcome on one row that changes as it becomes known (issue 36's rule): neutral while the
 * schema is only on this device, green once the server accepted it; a refusal shows the server's words
 * with a way to discard (RefusalNote), here and when the screen is next opened.
 */
import { Check, CloudUpload } from 'lucide-react'
import { SCHEMA_EDITOR_TEXT as T } from '../../../../shared/texts'
import { RefusalNote } from '../../../components/RefusalNote'
import type { SaveRefusal } from '../../../data/use-save-refusal'
import type { Outcome } from './use-schema-outcome'

export function SaveOutcome({
  outcome,
  reachable,
  refusal,
}: {
  outcome: Outcome
  reachable: boolean
  refusal: SaveRefusal | null
}) {
  return (
    <div className="schema-outcome" role="status" data-outcome={outcome}>
      {outcome === 'queued' && (
        <p className="notice schema-queued">
          <CloudUpload size={14} aria-hidden="true" /> {reachable ? T.sending : T.queuedOffline}
        </p>
      )}
      {outcome === 'accepted' && (
        <p className="notice schema-accepted">
          <Check size={14} aria-hidden="true" /> {T.accepted}
        </p>
      )}
      {outcome === 'refused' && <RefusalNote refusal={refusal} field={null} />}
    </div>
  )
}
