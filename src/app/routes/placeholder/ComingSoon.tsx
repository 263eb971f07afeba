/**
 * What a screen shows until the issue that builds it lands: its honest name and that it is coming,
 * nothing that pretends to work. A detail route (/users/{id}) still gets a useful trail back to its
 * list, so the breadcrumb reads "Users / alice" as the finished screen will.
 */
import { Construction } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { SHELL_TEXT } from '../../../shared/messages'
import type { ScreenProps } from '../../routing/table'
import { matchRoute, routeTitle } from '../../routing/table'
import { useBreadcrumbs, usePageTitle } from '../../shell/page-chrome'

export function ComingSoon({ title, params }: ScreenProps) {
  const [path] = useLocation()
  const id = params.id
  const parentPath = id ? parentOf(path, id) : null
  const parent = parentPath ? matchRoute(parentPath).route : null
  useBreadcrumbs(id && parent && parentPath ? [{ label: routeTitle(parent), href: parentPath }, id] : null)
  usePageTitle(id ? `${title} ${id}` : null)

  return (
    <section className="empty-state" aria-labelledby="page-heading">
      <Construction className="empty-icon" size={40} strokeWidth={1.5} aria-hidden="true" />
      <h1 id="page-heading">{id ? `${title} ${id}` : title}</h1>
      <p>{SHELL_TEXT.comingSoon(title)}</p>
      <Link href="/" className="button button-quiet">
        Back to home
      </Link>
    </section>
  )
}

/** '/users/alice' → '/users': the list the detail belongs to, relative to the router base. */
function parentOf(pathname: string, id: string): string | null {
  const segments = pathname.split('/').filter(Boolean)
  const at = segments.map(decodeURIComponent).lastIndexOf(id)
  if (at < 1) return null
  const kind = segments[at - 1]
  return kind ? `/${kind}` : null
}
