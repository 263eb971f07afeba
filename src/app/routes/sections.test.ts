/**
 * The route table and the sidebar as derived from the sections' manifests, against SPEC §2 and §6:
 * every row, its title and flags, which path lands where; the sidebar's order and who sees what.
 */
import { describe, expect, it } from 'vitest'
import { sectionFolders } from '../../../tests/helpers/console-routes'
import { spec } from '../../../tests/helpers/spec'
import { comparePatterns } from '../routing/section'
import { matchPattern, NOT_FOUND } from '../routing/table'
import { visibleMenu } from '../shell/menu'
import { MENU, ROUTES, routeOf, SECTIONS } from './sections'

const at = (path: string) => routeOf(path).route

describe('route table (SPEC §2)', () => {
  it.runIf(spec)('holds every title of the SPEC §2 table', () => {
    const section = spec!.split('## 2.')[1]!.split('## 3.')[0]!
    const titles = [...section.matchAll(/^\| [^|]+ \| ([^|]+) \| [^|]+ \|$/gm)]
      .map((m) => m[1]!.trim())
      .filter((t) => t !== 'Title' && t !== '404 page')
    expect(titles.length).toBeGreaterThan(20)
    for (const title of titles) expect(ROUTES.map((r) => r.title)).toContain(title)
  })

  it('sends each path to its row', () => {
    expect(at('/').title).toBe('home')
    expect(at('/').footer).toBe(false)
    expect(at('/actions').title).toBe('Actions')
    expect(routeOf('/actions/nightly').params).toEqual({ id: 'nightly' })
    expect(at('/actions/nightly').title).toBe('Action')
    expect(at('/data').title).toBe('Database')
    expect(at('/data/contacts/contact-0001').title).toBe('Database editor')
    expect(at('/forms/a/b').title).toBe('Forms editor')
    expect(at('/forms/a/b').auth).toBeUndefined()
    expect(at('/storage').auth).toBeUndefined()
    expect(at('/storage/images/a.png').title).toBe('Storage')
    expect(at('/static').title).toBe('Web Server')
    expect(at('/static/css/site.css').auth).toBe('required')
    expect(at('/users/alice').title).toBe('User')
    expect(at('/users/').title).toBe('Users')
  })

  it('flags the pages without shell and the login page as guest-only', () => {
    for (const p of ['/login', '/download', '/checkout', '/video', '/video/room-1']) {
      expect(at(p).shell).toBe(false)
    }
    expect(at('/login').auth).toBe('guest')
    expect(at('/settings').shell).toBe(true)
  })

  it('gives any other path the 404 page', () => {
    expect(at('/nope')).toBe(NOT_FOUND)
    expect(at('/actions/a/b')).toBe(NOT_FOUND)
    expect(at('/logs')).toBe(NOT_FOUND)
    expect(at('/users-list')).toBe(NOT_FOUND)
  })

  it('finds every section folder, and each route once', () => {
    expect(SECTIONS).toHaveLength(sectionFolders().length)
    const patterns = ROUTES.map((r) => r.pattern)
    expect(new Set(patterns).size).toBe(patterns.length)
    expect(new Set(ROUTES.map((r) => r.screen)).size).toBe(ROUTES.length)
  })

  it('sends no path to two rows: the order of the sections does not matter', () => {
    for (const route of ROUTES) {
      const sample = route.pattern.replace(/:[a-z]+/g, 'x').replace(/\/\*\??$/, '/x/y')
      const matching = ROUTES.filter((r) => matchPattern(r.pattern, sample))
      expect(matching.map((r) => r.pattern)).toEqual([route.pattern])
    }
    expect(comparePatterns('/users/:id', '/users/*')).toBeLessThan(0)
    expect(comparePatterns('/static/*', '/static/*?')).toBeLessThan(0)
  })
})

const shown = (perms: string[]) =>
  visibleMenu(perms, MENU).flatMap((i) =>
    i.hidden
      ? []
      : [i.title, ...(i.children ?? []).filter((c) => !c.hidden).map((c) => `${i.title}/${c.title}`)],
  )

describe('sidebar', () => {
  it('lists the entries in the SPEC §2 order', () => {
    expect(MENU.map((i) => i.title)).toEqual([
      'AI Assistant',
      'Actions',
      'Analytics',
      'Authentication',
      'Data',
      'Messages',
      'Payments',
      'Storage',
      'Templates',
      'Web Server',
      'Logs',
      'Settings',
    ])
  })

  it('shows everything to *:*', () => {
    expect(shown(['*:*'])).toHaveLength(12 + 10)
  })

  it('shows nothing without permissions', () => {
    expect(shown([])).toEqual([])
  })

  it('applies each key: users only, logs:r, discounts:cud, payments:ru, logs/server:r, settings:u', () => {
    expect(shown(['users:r'])).toEqual(['Authentication', 'Authentication/Users'])
    expect(shown(['logs:r'])).toEqual(['Logs', 'Logs/Client', 'Logs/Server'])
    expect(shown(['logs:r', 'discounts:r'])).toEqual(['Logs', 'Logs/Client', 'Logs/Server'])
    expect(shown(['logs:r', 'discounts:u', 'payments:r'])).toEqual([
      'Payments',
      'Payments/Discount Codes',
      'Payments/Transactions',
      'Logs',
      'Logs/Client',
      'Logs/Server',
    ])
    expect(shown(['logs/server:r'])).toEqual([])
    expect(shown(['settings:r'])).toEqual([])
    expect(shown(['settings:u', 'ai:c', 'static:r'])).toEqual(['AI Assistant', 'Web Server', 'Settings'])
  })

  it('honours none: logs:r with logs/server:n hides Server Logs', () => {
    expect(shown(['logs:r', 'logs/server:n'])).toEqual(['Logs', 'Logs/Client'])
  })
})
