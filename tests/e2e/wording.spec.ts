/**
 * Issue 36 #13, the wording and numbers a newcomer met: a report's average reads "1.67", not
 * "1.666667"; a long name takes two lines of a record's heading at 375 px (then "…", the whole name
 * its title), not nine; the fill page counts only the required fields it shows ("2 required fields"
 * while the conditional one is hidden, 3 once it shows); Transactions at 375 px is in
 * payments.spec.ts ("transactions at 375 px").
 */
import { expect, openLoggedIn, passwordOf, test } from './fixtures'
import { engineReady } from './pages/sync-panel'
import { DESKTOP, PHONE } from './widths'

test.use({ seed: 'sample', viewport: PHONE })

test('a report average shows two decimals', async ({ page, server }) => {
  const token = await server.login()
  for (const [i, n] of [1, 2, 2].entries()) {
    const res = await server.api('/api/data/wording-scores', { token, json: { _id: `s${i}`, n } })
    expect(res.status).toBe(201)
  }
  const report = await server.api('/api/reports', {
    token,
    json: {
      _id: 'wording-average',
      title: 'Average score',
      collection: 'data/wording-scores',
      filter: [],
      groupBy: [],
      aggregates: [{ op: 'avg', field: 'n' }],
      view: 'table',
    },
  })
  expect(report.status).toBe(201)
  await openLoggedIn(page, server, token, '/reports/wording-average')
  await engineReady(page)
  const table = page.getByRole('table', { name: /./ }).first()
  await expect(table.getByRole('cell', { name: '1.67', exact: true })).toBeVisible()
  await expect(page.getByText('1.666667')).toHaveCount(0)
})

test('a long name takes two lines of the heading, and its title holds the whole name', async ({
  page,
  server,
}) => {
  const token = await server.login()
  const name = Array.from({ length: 20 }, (_, i) => `Regional-operations-${i}`).join(' ')
  const group = await server.api('/api/groups', {
    token,
    json: { _id: 'wording-long', name, permissions: [] },
  })
  expect(group.status).toBe(201)
  await openLoggedIn(page, server, token, '/groups/wording-long')
  const heading = page.locator('#page-heading')
  await expect(heading).toHaveAttribute('title', name)
  const lines = await heading.evaluate((h) => {
    const style = getComputedStyle(h)
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.25
    return Math.round(h.getBoundingClientRect().height / line)
  })
  expect(lines).toBeLessThanOrEqual(2)
  await page.screenshot({ path: '/tmp/shots/long-name-375.png' })
  // The list cuts it to one line with "…" and says it whole on hover.
  await page.goto(`${server.ui}/groups`)
  await expect(page.getByRole('link', { name: name.slice(0, 40) })).toHaveAttribute('title', name)
  await page.setViewportSize(DESKTOP)
  await page.goto(`${server.ui}/groups/wording-long`)
  await page.screenshot({ path: '/tmp/shots/long-name-1280.png' })
})

test('the fill page counts only the required fields it shows', async ({ page, server }) => {
  // A member of the form's group (staff) fills it; an editor would get the form editor instead.
  const admin = await server.login()
  await server.createUser('filler', [], 'Fil')
  const joined = await server.api('/api/users/filler', {
    method: 'PATCH',
    json: { groups: ['staff'] },
    token: admin,
  })
  expect(joined.status, JSON.stringify(joined.body)).toBe(200)
  await openLoggedIn(page, server, await server.login('filler', passwordOf('filler')), '/forms/inspections')
  const foot = page.locator('.form-fill-foot')
  // Site and Date; "What must be fixed" shows (and is required) only when Passed is No.
  await expect(foot).toHaveText('2 required fields, marked *')
  await page.getByRole('radio', { name: 'No', exact: true }).check()
  await expect(foot).toHaveText('3 required fields, marked *')
  await page.screenshot({ path: '/tmp/shots/form-required-count-375.png' })
})
