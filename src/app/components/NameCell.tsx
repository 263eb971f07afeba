/**
 * The Name cell of a record list: the name as a link to the record, its id under it, and the
 * "Not synced yet" marker while the row has local writes the server has not confirmed (a long id
 * gives way to it: records.css .name-cell-id). `leading`
 * stands before the two lines (a user's picture), as `.user-cell` lays it out.
 */
import { CloudOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { SCREENS_TEXT } from '../../shared/texts'

export function NameCell(props: {
  href: string
  name: string
  id: string
  pending: boolean
  leading?: ReactNode
}) {
  const lines = (
    <span className="user-cell-text">
      <Link href={props.href} title={props.name || props.id}>
        {props.name || props.id}
      </Link>
      <span className="muted name-cell-id">
        <span>{props.id}</span>
        {props.pending && (
          <span className="sync-marker" title={SCREENS_TEXT.notSyncedHint}>
            <CloudOff size={13} aria-hidden="true" />
            {SCREENS_TEXT.notSynced}
          </span>
        )}
      </span>
    </span>
  )
  if (props.leading === undefined) return lines
  return (
    <span className="user-cell">
      {props.leading}
      {lines}
    </span>
  )
}
