/**
 * Home (SPEC §2 '/'): a greeting and a card for every section this user may open, built from the same
 * permission-filtered menu as the sidebar, so it never offers a door the user cannot pass.
 */
import { ChevronRight } from 'lucide-react'
import { Link } from 'wouter'
import { useSession, useSite } from '../../session/use-session'
import { displayName } from '../../shell/Avatar'
import { type MenuItem, useMenu, visibleMenu } from '../../shell/menu'

export function Home() {
  const { user, permissions } = useSession()
  const site = useSite()
  const menu = useMenu()
  const sections = visibleMenu(permissions, menu)
    .filter((i) => !i.hidden && !i.action)
    .map((i) => ({ ...i, children: i.children?.filter((c) => !c.hidden) }))

  return (
    <div className="home">
      <header className="home-header">
        <h1>Welcome{user ? `, ${displayName(user)}` : ''}</h1>
        <p>{site.description ?? `Manage ${site.title} from one place.`}</p>
      </header>
      {sections.length === 0 ? (
        <p className="muted">Your account has no sections yet. Ask an administrator to add you to a group.</p>
      ) : (
        <ul className="card-grid">
          {sections.map((s) => (
            <SectionCard key={s.key} item={s} />
          ))}
        </ul>
      )}
    </div>
  )
}

function SectionCard({ item }: { item: MenuItem }) {
  const Icon = item.icon
  const links = item.children ?? [item]
  return (
    <li className="card">
      <div className="card-head">
        <span className="card-icon" aria-hidden="true">
          <Icon size={20} strokeWidth={1.75} />
        </span>
        <h2>{item.title}</h2>
      </div>
      <ul className="card-links">
        {links.map((l) => (
          <li key={l.key}>
            <Link href={l.href ?? '/'}>
              {item.children ? l.title : `Open ${l.title}`}
              <ChevronRight size={16} aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </li>
  )
}
