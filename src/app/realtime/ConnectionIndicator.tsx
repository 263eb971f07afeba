/**
 * Toolbar dot plus label for the connection state; a live region, so a drop is announced. The state
 * is the sync control's too (src/app/sync-ui/connection-state.ts): the words and the cloud agree.
 */
import { FEEDBACK_TEXT } from '../../shared/texts'
import '../feedback/feedback.css'
import { useConnectionState } from '../sync-ui/connection-state'

export function ConnectionIndicator() {
  const connection = useConnectionState()
  // Syncing is online in words; the sync control's turning icon beside it says the rest.
  const state = connection === 'syncing' ? 'online' : connection
  const label = FEEDBACK_TEXT[state]
  return (
    <span className="mc-connection" role="status" data-state={state} title={label} data-testid="connection">
      <span className="mc-connection-dot" aria-hidden="true" />
      <span className="mc-connection-label">{label}</span>
    </span>
  )
}
