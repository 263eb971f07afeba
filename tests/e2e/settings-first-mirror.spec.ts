/**
 * The Settings screen on a device whose first mirror has not brought the settings yet: it says it is
 * loading, with no form to type into, and shows the server's values once they arrive. An empty form
 * showed blanks as the settings and let typing race the rows arriving (a CI run's "Back-office
 * consoleChanged but not saved"). The live socket is refused and the first pull held back, so the
 * settings can only arrive when the test lets them.
 */
import type { Route } from '@playwright/test'
import { SettingsPage } from './pages/settings'
import { expect, openLoggedIn, test } from './proxied'

test('settings not mirrored yet: "Loading settings…", no form, then the server’s values', async ({
  page,
  context,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  link.refuse = true
  const held: Route[] = []
  let released = false
  await context.route('**/api/sync?**', (route) => {
    if (released) return route.continue()
    held.push(route)
  })
  await openLoggedIn(page, through, token, '/settings')
  await expect.poll(() => held.length).toBeGreaterThan(0)
  await expect(page.getByRole('status').filter({ hasText: 'Loading settings…' })).toBeVisible()
  const s = new SettingsPage(page)
  await expect(s.field('Description')).toHaveCount(0)

  released = true
  for (const route of held.splice(0)) await route.continue()
  await expect(s.field('Description')).toHaveValue('Back-office console')
})
