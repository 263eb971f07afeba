/**
 * No permission or offline state is raw (issue 36, "The rule"): every route of the route table is
 * visited (a) by a logged-in user with no permissions at all, and (b) by the admin with the server cut
 * off (a real cut through the socket proxy, navigator.onLine still true) before the first visit of the
 * route. No page may show what the browser or the server said instead of the console: "Failed to
 * fetch", "NetworkError", "TypeError", "HTTP 500" alone, "[object Object]", "undefined", "Load failed",
 * a stack trace, a bare status number or error code. A screen the user may not open says so in the
 * shared words ("You cannot open X: it requires the permission …", cannotDo in
 * src/shared/texts/spec.ts). Routes come from src/app/routing/table.ts (route-walk.ts).
 */
import type { Page } from '@playwright/test'
import type { RouteDef } from '../../src/app/routing/table'
import { SYNC_UI_TEXT } from '../../src/shared/texts'
import { passwordOf } from './fixtures'
import { goInPage } from './pages/go-in-page'
import { engineReady } from './pages/sync-panel'
import { expect, openLoggedIn, test } from './proxied'
import { everyRoute } from './route-walk'
import type { SocketProxy } from './socket-proxy'
import { DESKTOP, PHONE } from './widths'

test.use({ seed: 'sample', viewport: DESKTOP })

/** Text anywhere on the page that only the browser or the server would say. */
const RAW_ANYWHERE: Array<[string, RegExp]> = [
  ['Failed to fetch', /Failed to fetch/i],
  ['NetworkError', /NetworkError/],
  ['Network error', /^Network error$/im],
  ['TypeError', /TypeError/],
  ['Load failed', /Load failed/i],
  ['[object Object]', /\[object \w+\]/],
  ['undefined', /\bundefined\b/],
  ['NaN', /\bNaN\b/],
  ['HTTP status alone', /\bHTTP [1-5]\d\d\b/],
  ['stack trace', /\bat \S+ \(|\.(?:js|ts|tsx):\d+:\d+/],
]

/** Whole messages (alerts, toasts, form errors) that are only a status or the server's error code. */
const RAW_MESSAGE: Array<[string, RegExp]> = [
  ['bare status number', /^\W*(?:error\W*)?[45]\d\d\W*$/i],
  [
    'status text alone',
    /^(?:forbidden|unauthorized|not found|bad request|internal server error|service unavailable|bad gateway|gateway timeout)\.?$/i,
  ],
  ['error code alone', /^[a-z]+(?:_[a-z]+)+$/],
]

/** A refusal in other words than the shared one. */
const OTHER_REFUSAL = /\b(?:forbidden|access denied|permission denied|not permitted|not authori[sz]ed)\b/i
/** cannotDo('open', what, needed) */
const NO_ACCESS = /You cannot open .+: it requires the permission \S+\./
/** PERMISSION_UI_TEXT.readOnly: a screen everyone may read (Settings) says what changing it needs. */
const READ_ONLY = /Read-only: you need \S+ to .+\./

async function pageTexts(page: Page): Promise<{ body: string; main: string; messages: string[] }> {
  return page.evaluate(() => {
    const sel = '[role=alert], [role=status], .mc-toast, .form-error, .field-error, .error, [class*="error"]'
    const messages = [...document.querySelectorAll<HTMLElement>(sel)]
      .map((e) => e.innerText?.trim() ?? '')
      .filter(Boolean)
    const main = document.querySelector<HTMLElement>('main')?.innerText.trim() ?? ''
    return { body: document.body.innerText, main, messages }
  })
}

/** What is raw on the page now: several looks, so that a toast that comes and goes is seen too. */
async function rawOn(page: Page): Promise<string[]> {
  const found = new Set<string>()
  for (const wait of [300, 800, 1500]) {
    await page.waitForTimeout(wait)
    const { body, main, messages } = await pageTexts(page)
    // A screen that failed to render blanks the console (no raw words, nothing at all): as bad.
    if (!main && wait === 1500) found.add('blank screen')
    for (const [name, re] of RAW_ANYWHERE) {
      const m = body.match(re)
      if (m) found.add(`${name}: …${context(body, m.index ?? 0)}…`)
    }
    for (const text of messages) {
      for (const [name, re] of RAW_MESSAGE) if (re.test(text)) found.add(`${name}: "${text}"`)
      if (OTHER_REFUSAL.test(text) && !NO_ACCESS.test(text)) found.add(`refusal in other words: "${text}"`)
    }
  }
  return [...found]
}

const context = (text: string, at: number) => text.slice(Math.max(0, at - 60), at + 60).replace(/\s+/g, ' ')

/** A route a logged-in user opens only with a permission: it must say which one, in the shared words. */
const needsPermission = (route: RouteDef) => route.auth === 'required' && route.pattern !== '/'

const slug = (path: string) => path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'

test('a user without any permission meets no raw error on any route, and the shared refusal', async ({
  page,
  server,
}) => {
  test.setTimeout(300_000)
  const admin = await server.login()
  const routes = await everyRoute(server, admin)
  await server.createUser('norights', [], 'No Rights')
  const token = await server.login('norights', passwordOf('norights'))
  await openLoggedIn(page, server, token, '/')
  await engineReady(page)

  const report: Record<string, string[]> = {}
  for (const { route, path } of routes) {
    await goInPage(page, path)
    const found = await rawOn(page)
    if (needsPermission(route)) {
      const refusal = page.getByText(NO_ACCESS).or(page.getByText(READ_ONLY)).first()
      if (!(await refusal.isVisible())) found.push('no "You cannot open …: it requires the permission …"')
    }
    if (found.length) report[`${route.pattern} (${path})`] = found
    if (['/users', '/payments', '/analytics/users', '/settings'].includes(path)) {
      await page.screenshot({ path: `/tmp/shots/raw-norights-${slug(path)}-1280.png` })
    }
  }
  await page.setViewportSize(PHONE)
  await page.goto(`${server.ui}/payments`)
  await page.screenshot({ path: '/tmp/shots/raw-norights-payments-375.png' })
  expect(report).toEqual({})
})

/** A real cut (navigator.onLine stays true), the engine's socket dropped so that it notices at once. */
async function cutServer(page: Page, link: SocketProxy): Promise<void> {
  link.offline = true
  link.killEngineSockets()
  await expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'offline')
}

/**
 * Two ways of being cut off: the server gone while the device keeps its network (navigator.onLine
 * stays true: a dead router, a restarted server) and the device offline (the browser knows it too).
 */
for (const mode of ['server unreachable', 'device offline'] as const) {
  test(`the admin, ${mode} before the first visit of each route, meets no raw error`, async ({
    page,
    context,
    server,
    link,
    through,
  }) => {
    test.setTimeout(300_000)
    const admin = await server.login()
    const routes = await everyRoute(server, admin)
    await openLoggedIn(page, through, admin, '/')
    await engineReady(page)
    await cutServer(page, link)
    if (mode === 'device offline') await context.setOffline(true)

    const report: Record<string, string[]> = {}
    for (const { route, path } of routes) {
      // The login page sends a logged-in session home; the cut keeps it from anything else.
      await goInPage(page, path)
      const found = await rawOn(page)
      if (found.length) report[`${route.pattern} (${path})`] = found
      if (mode === 'server unreachable' && ['/analytics/users', '/payments', '/storage'].includes(path)) {
        await page.screenshot({ path: `/tmp/shots/raw-offline-${slug(path)}-1280.png` })
      }
    }
    if (mode === 'server unreachable') {
      await page.setViewportSize(PHONE)
      await goInPage(page, '/analytics/pages')
      await expect(page.getByText(SYNC_UI_TEXT.notLoaded)).toBeVisible()
      await page.screenshot({ path: '/tmp/shots/raw-offline-analytics-pages-375.png' })
    }
    expect(report).toEqual({})
  })
}
