/**
 * The Actions console offline (issue 15): with the server cut off by the socket proxy (a real cut for
 * the page, its workers and the service worker), the debug panel's Run is disabled and says running
 * needs the network; a code edit is saved through the outbox and reaches the server once on reconnect,
 * after which the action runs with the new code.
 */

import { ActionEditor, ActionsPage, openAsAuthor } from './pages/actions'
import { writesPerDoc } from './pages/sync-panel'
import { expect, test } from './proxied'

test('an offline code edit is queued, running says it needs the network, and the edit arrives on reconnect', async ({
  page,
  server,
  link,
  through,
}) => {
  test.setTimeout(120_000)
  const { token } = await openAsAuthor(page, through)
  await new ActionsPage(page).create('offline-edit', 'Offline edit', 'POST')
  const editor = new ActionEditor(page)
  await expect.poll(async () => (await server.api('/api/actions/offline-edit', { token })).status).toBe(200)
  await expect(editor.runButton).toBeEnabled({ timeout: 20_000 })

  link.offline = true
  link.killEngineSockets()
  await expect(editor.runButton).toBeDisabled({ timeout: 20_000 })
  await expect(editor.debug).toContainText('Running an action needs the network')

  await editor.setCode("log('edited offline')\nreturn 'v2'")
  await editor.save('offline-edit', true)
  await expect(page.getByText('Not synced yet').first()).toBeVisible()
  await expect(editor.debug).toContainText('Running an action needs the network')
  expect(
    ((await server.api('/api/actions/offline-edit', { token })).body as { code: string }).code,
  ).not.toContain('edited offline')

  link.offline = false
  await expect
    .poll(
      async () => ((await server.api('/api/actions/offline-edit', { token })).body as { code: string }).code,
      {
        timeout: 30_000,
      },
    )
    .toBe("log('edited offline')\nreturn 'v2'")
  expect((await writesPerDoc(server, token, 'actions'))['offline-edit']).toBe(2) // the create and the edit

  await editor.run('{}')
  await expect(editor.result.getByRole('region', { name: 'Output' })).toContainText('"v2"')
  await expect(editor.result.getByRole('region', { name: 'Logs' })).toContainText('edited offline')
})
