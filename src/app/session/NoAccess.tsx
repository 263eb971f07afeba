/** What a section shows to a user whose permissions do not cover it (the server would answer 403). */
import { ShieldOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { AUTH_SCREENS_TEXT } from '../../shared/texts'
import { useCan } from './use-can'

export function NoAccess({ section, needed }: { section: string; needed: string }) {
  return (
    <section className="empty-state" aria-labelledby="page-heading">
      <ShieldOff className="empty-icon" size={40} strokeWidth={1.5} aria-hidden="true" />
      <h1 id="page-heading">{section}</h1>
      <p role="alert">{AUTH_SCREENS_TEXT.noAccess(section, needed)}</p>
    </section>
  )
}

/**
 * A route entry's guard: the screen when the session may `needed`, else NoAccess — decided from the
 * session before the screen's chunk loads or asks the server, so a 403's words never reach the page.
 */
export function WithAccess(props: { section: string; needed: string; children: ReactNode }) {
  const allowed = useCan()
  return allowed(props.needed) ? props.children : <NoAccess section={props.section} needed={props.needed} />
}
