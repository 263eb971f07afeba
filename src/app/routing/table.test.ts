/** The route table against SPEC §2: every row, its title and flags, and which path lands where. */
import { describe, expect, it } from 'vitest'
import { spec } from '../../../tests/helpers/spec'
import { matchPattern, matchRoute, NOT_FOUND, ROUTES } from './table'

const at = (path: string) => matchRoute(path).route

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
    expect(matchRoute('/actions/nightly').params).toEqual({ id: 'nightly' })
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

  it('matches patterns on whole segments and decodes params', () => {
    expect(matchPattern('/users/:id', '/users/a%40b.com')).toEqual({ id: 'a@b.com' })
    expect(matchPattern('/data/*', '/data')).toBeNull()
    expect(matchPattern('/static/*?', '/static')).toEqual({ rest: '' })
    expect(matchPattern('/static/*?', '/staticx')).toBeNull()
    expect(matchPattern('/', '/?x=1')).toEqual({})
  })
})
