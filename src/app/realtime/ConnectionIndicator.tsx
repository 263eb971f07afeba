/** Toolbar dot plus label for the connection state; a live region, so a drop is announced. */
import { FEEDBACK_TEXT } from '../../shared/messages'
import '../feedback/feedback.css'
import { useConnectionState } from './use-connection-state'

export function ConnectionIndicator() {
  const state = useConnectionState()
  const label = FEEDBACK_TEXT[state]
  return (
    <span className="mc-connection" role="status" data-state={state} title={label} data-testid="connection">
      <span className="mc-connection-dot" aria-hidden="true" />
      <span className="mc-connection-label">{label}</span>
    </span>
  )
}
