/**
 * The Name cell of a record list: the name as a link to the record, its id under it, and the
 * "Not synced yet" marker while the row has local writes the server has not confirmed.
 */
import { CloudOff } from 'lucide-react'
import { Link } from 'wouter'
import { SCREENS_TEXT } from '../../shared/texts'

export function NameCell(props: { href: string; name: string; id: string; pending: boolean }) {
  return (
    <span className="user-cell-text">
      <Link href={props.href} title={props.name || props.id}>
        {props.name || props.id}
      </Link>
      <span className="muted">
        {props.id}
        {props.pending && (
          <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
            <CloudOff size={13} aria-hidden="true" />
            {SCREENS_TEXT.notSynced}
          </span>
        )}
      </span>
    </span>
  )
}
