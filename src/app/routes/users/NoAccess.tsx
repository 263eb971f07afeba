/** What a section shows to a user whose permissions do not cover it (the server would answer 403). */
import { ShieldOff } from 'lucide-react'
import { AUTH_SCREENS_TEXT } from '../../../shared/messages'

export function NoAccess({ section, needed }: { section: string; needed: string }) {
  return (
    <section className="empty-state" aria-labelledby="page-heading">
      <ShieldOff className="empty-icon" size={40} strokeWidth={1.5} aria-hidden="true" />
      <h1 id="page-heading">{section}</h1>
      <p role="alert">{AUTH_SCREENS_TEXT.noAccess(section, needed)}</p>
    </section>
  )
}
