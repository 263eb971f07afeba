/** Sidebar order (SPEC §2) and visibility by the SPEC §6 permission keys, through the shared matcher. */
import { describe, expect, it } from 'vitest'
import { MENU, visibleMenu } from './menu'

const shown = (perms: string[]) =>
  visibleMenu(perms).flatMap((i) =>
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
