/**
 * The assistant popup in the real console against the real server, which talks to a real local
 * OpenAI-compatible peer (tests/helpers/openai-peer.ts) that answers with a <think> block.
 */

import { AI_TEXT, AUTH_SCREENS_TEXT, UI_TEXT } from '../../src/shared/texts'
import { type OpenAiPeer, startOpenAiPeer } from '../helpers/openai-peer'
import { Shell } from './pages/shell'
import { test as base, expect, openLoggedIn } from './proxied'
import { WIDTHS } from './widths'

const test = base.extend<object, { peer: OpenAiPeer }>({
  peer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
    async ({}, use) => {
      const peer = await startOpenAiPeer()
      await use(peer)
      await peer.close()
    },
    { scope: 'worker' },
  ],
  serverEnv: [
    async ({ peer }, use) => use({ MOMENTUM_AI_URL: peer.url, MOMENTUM_AI_MODEL: 'tiny-test' }),
    { scope: 'worker' },
  ],
})

for (const { name, viewport } of WIDTHS) {
  test.describe(`assistant at ${name} width`, () => {
    test.use({ viewport })

    test('asks, shows typing, strips think blocks, keeps history and clears it', async ({
      page,
      server,
      peer,
    }) => {
      const token = await server.login()
      await server.api('/api/ai', { method: 'DELETE', token })
      peer.requests.length = 0
      await openLoggedIn(page, server, token, '/')
      const shell = new Shell(page)
      await shell.openAssistant()

      const popup = page.getByRole('dialog', { name: `Power by ${new URL(peer.url).host} (tiny-test)` })
      await expect(popup).toBeVisible()
      // On a phone the entry sits in the drawer, which closes as it does for the other entries.
      if (name === 'phone') await expect(shell.sidebar).toBeHidden()
      const input = popup.getByPlaceholder(UI_TEXT.assistantPlaceholder)

      // Blank input is not sent.
      await input.fill('   ')
      await input.press('Enter')
      await expect(popup.locator('.mc-chat-message')).toHaveCount(0)

      // Shift+Enter adds a line instead of sending.
      await input.fill('line one')
      await input.press('Shift+Enter')
      await input.pressSequentially('line two')
      await expect(input).toHaveValue('line one\nline two')
      expect(peer.requests).toHaveLength(0)

      peer.delayMs = 1500
      await input.fill('How many users?')
      await input.press('Enter')
      await expect(popup.getByRole('status', { name: AI_TEXT.typing })).toBeVisible()
      await expect(popup.locator('.mc-chat-message[data-role="assistant"]')).toHaveText(
        'You asked: How many users?',
      )
      await expect(popup.getByRole('status', { name: AI_TEXT.typing })).toBeHidden()
      await expect(popup).not.toContainText('Answer briefly')
      await expect(input).toHaveValue('')
      peer.delayMs = 0
      expect(peer.requests).toHaveLength(1)
      // The server was told where the user is, without the /ui prefix.
      expect(peer.requests[0]!.messages.at(-1)!.content).toContain('Viewing: /\n')

      // Reopening loads the history from the server; the stored context block stays hidden.
      await popup.getByRole('button', { name: AI_TEXT.close }).click()
      await expect(popup).toBeHidden()
      await page.reload()
      await shell.openAssistant()
      await expect(popup.locator('.mc-chat-message')).toHaveText([
        'How many users?',
        'You asked: How many users?',
      ])
      await expect(popup).not.toContainText('<context>')

      // Clearing asks first, then empties the chat here and on the server.
      await popup.getByRole('button', { name: AI_TEXT.clear }).click()
      const confirm = page.getByRole('dialog', { name: 'Confirm Delete' })
      await expect(confirm).toContainText(
        'Do you really want to delete 2 messages? This action cannot be undone.',
      )
      await confirm.getByRole('button', { name: 'Delete 2' }).click()
      await expect(popup.locator('.mc-chat-message')).toHaveCount(0)
      expect((await server.api('/api/ai', { token })).body).toEqual([])
    })
  })
}

test('shows the upstream failure in the chat', async ({ page, server, peer }) => {
  const token = await server.login()
  await openLoggedIn(page, server, token, '/')
  await page.getByRole('button', { name: 'AI Assistant' }).click()
  peer.failWith = 500
  try {
    const input = page.getByPlaceholder(UI_TEXT.assistantPlaceholder)
    await input.fill('Are you there?')
    await input.press('Enter')
    await expect(
      page.getByRole('alert').filter({ hasText: AI_TEXT.upstreamStatus(500, 'model is overloaded') }),
    ).toBeVisible()
  } finally {
    peer.failWith = null
  }
})

test('with the server out of reach, the chat says it needs a connection to the server', async ({
  page,
  server,
  link,
  through,
}) => {
  const token = await server.login()
  await openLoggedIn(page, through, token, '/')
  await page.getByRole('button', { name: 'AI Assistant' }).click()
  const input = page.getByPlaceholder(UI_TEXT.assistantPlaceholder)
  await expect(input).toBeVisible()
  // A real cut (navigator.onLine stays true): the question's fetch fails with a TypeError.
  link.offline = true
  await input.fill('Are you there?')
  await input.press('Enter')
  const alert = page.getByRole('alert').filter({ hasText: AUTH_SCREENS_TEXT.needsNetwork(AI_TEXT.title) })
  await expect(alert).toBeVisible()
  await expect(alert).not.toContainText('Failed to fetch')
})
