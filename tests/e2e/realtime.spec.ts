/** The toolbar's connection indicator follows the browser's network and the console's websocket. */
import { FEEDBACK_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'

test('goes offline and back online with the network', async ({ page, context, server }) => {
  const token = await server.login()
  const socket = page.waitForEvent('websocket', (ws) => ws.url().includes('/api/socket?'))
  await openLoggedIn(page, server, token, '/')
  expect((await socket).url()).toContain(`token=${encodeURIComponent(token)}`)
  const indicator = page.getByTestId('connection')
  await expect(indicator).toHaveAttribute('data-state', 'online')
  await expect(indicator).toContainText(FEEDBACK_TEXT.online)

  await context.setOffline(true)
  await expect(indicator).toHaveAttribute('data-state', 'offline')
  await expect(indicator).toContainText(FEEDBACK_TEXT.offline)

  await context.setOffline(false)
  await expect(indicator).toHaveAttribute('data-state', 'online')
})
