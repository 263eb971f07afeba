/**
 * The group page's permission editor: entries typed and validated in the browser, saved with
 * Ctrl/Cmd+S, and a preview that matches what the real server then decides for a member of the group,
 * path by path and method by method.
 */
import { type E2EServer, expect, openLoggedIn, passwordOf, test } from './fixtures'
import { GroupPage } from './pages/groups'

const SHOTS = 'test-results/screenshots'
const PERMISSIONS = [
  'products:r',
  'users:*',
  'users/admin:n',
  'discounts:cu',
  'act*:r',
  'groups:r',
  'groups/nobody:n',
]
const MODULES = ['products', 'users', 'groups', 'discounts', 'actions', 'schemas']

/** The server's verdict for a method on a path, as the member of the group: anything but 403 passes. */
async function serverAllows(
  server: E2EServer,
  token: string,
  path: string,
  method: string,
): Promise<boolean> {
  const init =
    method === 'c'
      ? { method: 'POST', json: {} }
      : method === 'u'
        ? { method: 'PATCH', json: {} }
        : method === 'd'
          ? { method: 'DELETE' }
          : { method: 'GET' }
  const res = await server.api(`/api/${path}`, { ...init, token })
  expect(res.status, `${method} ${path}`).not.toBe(401)
  return res.status !== 403
}

test('the permission preview matches the server for a table of paths and methods', async ({
  page,
  server,
}) => {
  test.setTimeout(150_000)
  await server.createUser('probe', [])
  const admin = await server.login()
  await page.setViewportSize({ width: 1280, height: 900 })
  await openLoggedIn(page, server, admin, '/groups/g-probe')
  const group = new GroupPage(page)
  await group.open(server.ui, 'g-probe')
  await group.addPermissions([...PERMISSIONS, 'users:x'])
  await expect(page.getByText('methods are letters from c r u d * n')).toBeVisible()
  await page.getByRole('button', { name: 'Remove users:x' }).click()
  await page.keyboard.press('ControlOrMeta+s')
  await expect(page.getByText('Group g-probe was saved successfully')).toBeVisible()
  await expect
    .poll(
      async () =>
        ((await server.api('/api/groups/g-probe', { token: admin })).body as { permissions: string[] })
          .permissions,
    )
    .toEqual(PERMISSIONS)
  await expect(group.summary).toContainText('can read Products')
  await page.screenshot({ path: `${SHOTS}/group-1280.png`, fullPage: true })

  const member = await server.login('probe', passwordOf('probe'))
  for (const module of MODULES) {
    // The collection path decides create and list; an id below it decides read, update and delete.
    const top = await group.verdicts(module)
    for (const m of ['c', 'r'])
      expect(await serverAllows(server, member, module, m), `${m} ${module}`).toBe(top[m])
    for (const id of ['nobody', 'admin']) {
      const one = await group.verdicts(`${module}/${id}`)
      for (const m of ['r', 'u', 'd']) {
        expect(await serverAllows(server, member, `${module}/${id}`, m), `${m} ${module}/${id}`).toBe(one[m])
      }
    }
  }

  await page.setViewportSize({ width: 375, height: 800 })
  await page.reload()
  await page.locator('h1').first().waitFor()
  await page.screenshot({ path: `${SHOTS}/group-375.png`, fullPage: true })
  await page.goto(`${server.ui}/groups`)
  await expect(page.getByRole('table', { name: 'Groups' })).toContainText('g-probe')
  await page.screenshot({ path: `${SHOTS}/groups-375.png` })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.screenshot({ path: `${SHOTS}/groups-1280.png` })
})
