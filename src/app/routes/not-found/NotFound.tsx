/** The 404 page for "any other path" (SPEC §2), inside the shell so the user can navigate on. */
import { MapPinOff } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { SHELL_TEXT } from '../../../shared/texts'

export function NotFound() {
  const [path] = useLocation()
  return (
    <section className="empty-state" aria-labelledby="page-heading">
      <MapPinOff className="empty-icon" size={40} strokeWidth={1.5} aria-hidden="true" />
      <p className="empty-code">404</p>
      <h1 id="page-heading">{SHELL_TEXT.notFound}</h1>
      <p>{SHELL_TEXT.notFoundText(path)}</p>
      <Link href="/" className="button button-primary">
        Go to home
      </Link>
    </section>
  )
}
