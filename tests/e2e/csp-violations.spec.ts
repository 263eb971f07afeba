/**
 * Zero Content-Security-Policy violations on every console route (issue 36 #8): CodeMirror's themes
 * once logged 15–104 `style-src` refusals per visit of the Templates and Actions editors. The routes
 * come from the console's own route table (each section's manifest), so a route added there is
 * visited here without touching this file: a `:id` takes an id from the sample data (or one this
 * spec creates: a template of every kind, an action), a `/*` a sample below it, `/*?` its bare
 * prefix; anything unknown still opens (its "not found" state). Admin, 1280 px, with the editors used
 * (typing, the search panel, completion), where the themes are mounted.
 */
import type { Page } from '@playwright/test'
import { NOT_FOUND, type RouteDef } from '../../src/app/routing/table'
import { TEMPLATE_KINDS, TEMPLATE_PARTS } from '../../src/shared/templates'
import { consoleRoutes } from '../helpers/console-routes'
import { listenForViolations, violationsInPage, watchViolations } from './csp'
import { type E2EServer, expect, openLoggedIn, test } from './fixtures'
import { engineReady } from './pages/sync-panel'
import { DESKTOP } from './widths'

test.use({ seed: 'sample', viewport: DESKTOP })

/** Where a route's first segment is not the API collection that lists its ids. */
const COLLECTION_OF: Record<string, string> = { payments: 'transactions' }
/** `/*` routes whose sample is not an id in `/api/{segment}`. */
const BELOW: Record<string, string> = { data: 'contacts' }
const MISSING = 'e2e-missing'

async function idsOf(server: E2EServer, token: string, segment: string): Promise<string[]> {
  const res = await server.api<unknown>(`/api/${COLLECTION_OF[segment] ?? segment}`, { token })
  const body = res.body as { docs?: unknown[]; items?: unknown[] } | unknown[] | null
  const list = Array.isArray(body) ? body : (body?.docs ?? body?.items ?? [])
  return list
    .map((d) => (d as { _id?: unknown; id?: unknown })._id ?? (d as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string')
}

/** The concrete paths one route is visited at. */
async function pathsOf(route: RouteDef, server: E2EServer, token: string): Promise<string[]> {
  const [segment = ''] = route.pattern.split('/').filter(Boolean)
  if (route.pattern.endsWith('/*?')) return [route.pattern.slice(0, -3) || '/']
  if (route.pattern.endsWith('/*')) {
    const below = BELOW[segment] ?? (await idsOf(server, token, segment))[0] ?? MISSING
    return [`${route.pattern.slice(0, -2)}/${encodeURIComponent(below)}`]
  }
  if (!route.pattern.includes(':')) return [route.pattern]
  const ids = await idsOf(server, token, segment)
  // This spec's own records (every template kind, the action) where there are any, else the first.
  const ours = ids.filter((id) => id.startsWith('csp-'))
  const chosen = ours.length ? ours : ids.slice(0, 1)
  return (chosen.length ? chosen : [MISSING]).map((id) =>
    route.pattern.replace(/:[a-z]+/i, encodeURIComponent(id)),
  )
}

/** Uses a CodeMirror field: types and undoes, opens the search panel, and completion when asked. */
async function exerciseEditor(page: Page, complete: boolean): Promise<void> {
  const content = page.locator('.cm-content').first()
  await content.click()
  await page.keyboard.type('x')
  await page.keyboard.press('ControlOrMeta+z')
  if (complete) {
    await page.keyboard.press('Control+Space')
    await expect(page.locator('.cm-tooltip-autocomplete')).toBeVisible()
    await page.screenshot({ path: '/tmp/shots/csp-action-editor-desktop.png' })
    await page.keyboard.press('Escape')
  }
  // A preview render that lands meanwhile may move the focus: click again until the panel opens.
  await expect(async () => {
    await content.click()
    await page.keyboard.press('ControlOrMeta+f')
    await expect(page.locator('.cm-search')).toBeVisible({ timeout: 1000 })
  }).toPass()
  await page.keyboard.press('Escape')
}

test('no route of the console meets a Content-Security-Policy violation', async ({
  page,
  context,
  server,
}) => {
  test.setTimeout(240_000)
  await listenForViolations(context)
  const seen = watchViolations(page)
  const admin = await server.login()
  for (const kind of TEMPLATE_KINDS) {
    const parts = Object.fromEntries(
      TEMPLATE_PARTS[kind].map((p) => [p.field, `<p>${p.field} {{ name }}</p>`]),
    )
    const res = await server.api('/api/templates', {
      token: admin,
      json: { _id: `csp-${kind}`, kind, name: `CSP ${kind}`, sample: { name: 'Ada' }, ...parts },
    })
    expect(res.status, kind).toBeLessThan(300)
  }
  const action = await server.api('/api/actions', {
    token: admin,
    json: { _id: 'csp-action', name: 'CSP action', trigger: { type: 'GET' }, code: "return 'ok'" },
  })
  expect(action.status).toBeLessThan(300)

  const report: Record<string, string[]> = {}
  const visit = async (path: string, after?: () => Promise<void>) => {
    const consoleBefore = seen.length
    await page.goto(`${server.ui}${path}`)
    await page.waitForLoadState('networkidle').catch(() => {})
    await after?.()
    const found = [...(await violationsInPage(page)), ...seen.slice(consoleBefore)].filter((v) =>
      /^(?!pageerror)/.test(v),
    )
    if (found.length) report[path] = found
  }

  await visit('/login') // before logging in, as a person meets it
  await openLoggedIn(page, server, admin, '/')
  await engineReady(page)
  const visited: string[] = []
  for (const route of [...(await consoleRoutes()), NOT_FOUND]) {
    const paths = route === NOT_FOUND ? ['/e2e-no-such-page'] : await pathsOf(route, server, admin)
    for (const path of paths) {
      visited.push(path)
      const editor = route.pattern === '/templates/:id' || route.pattern === '/actions/:id'
      await visit(path, async () => {
        if (!editor) return
        await expect(page.locator('.cm-editor').first()).toBeVisible()
        await exerciseEditor(page, route.pattern === '/actions/:id')
      })
    }
  }
  // The editors were really visited, one per template kind.
  for (const kind of TEMPLATE_KINDS) expect(visited).toContain(`/templates/csp-${kind}`)
  expect(visited).toContain('/actions/csp-action')
  expect(report).toEqual({})
})
