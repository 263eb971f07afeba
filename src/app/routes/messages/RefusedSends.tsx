/**
 * Sends from this device that the server refused, listed on the composer until they are fixed or
 * discarded (issue 36): a send refused while the screen was closed (queued offline, refused on
 * reconnect) is met here on the next visit, not only in the Sync panel. "Edit and resend" puts the
 * request back in the composer, where its refusal stands next to the field it concerns.
 */
import type { InboxItem } from '../../../db/types'
import { MESSAGES_CONSOLE_TEXT } from '../../../shared/texts'
import { useEngine } from '../../data/sync-context'
import { TAB_LABEL } from './compose'

const channelOf = (item: InboxItem): string =>
  TAB_LABEL[item.mine?.channel as keyof typeof TAB_LABEL] ?? String(item.mine?.channel)

const toOf = (item: InboxItem): string => {
  const to = item.mine?.to
  return Array.isArray(to) ? to.join(', ') : String(to ?? '')
}

export function RefusedSends({ items, onEdit }: { items: InboxItem[]; onEdit: (item: InboxItem) => void }) {
  const engine = useEngine()
  if (items.length === 0) return null
  return (
    <div className="refused-sends" role="alert" data-testid="refused-sends">
      <p>{MESSAGES_CONSOLE_TEXT.refusedEarlier(items.length)}</p>
      <ul>
        {items.map((item) => (
          <li key={item.mutationId}>
            <span>
              <strong>{`${channelOf(item)} to ${toOf(item)}`}</strong>: {item.message}
            </span>
            <span className="refused-actions">
              <button type="button" className="button button-small" onClick={() => onEdit(item)}>
                {MESSAGES_CONSOLE_TEXT.editAndResend}
              </button>
              <button
                type="button"
                className="button button-small button-quiet"
                onClick={() => void engine.resolve(item.mutationId, { choice: 'theirs' })}
              >
                {MESSAGES_CONSOLE_TEXT.discard}
              </button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
