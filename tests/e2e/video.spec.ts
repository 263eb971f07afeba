/**
 * Video calls end to end (issue 18, docs/using/video.md): two Chromium contexts with fake camera and
 * microphone each decode the other's video (framesDecoded > 0 from getStats, shown on the tiles);
 * the same forced through a coturn relay started here with the secret the server signs credentials
 * with; a peer cut off by a real network cut (the socket proxy) comes back into the call; leave and
 * rejoin; an invitation rings and Accept joins the room; a user who is not allowed cannot join.
 */
import fs from 'node:fs'
import type { Browser, Page } from '@playwright/test'
import config from '../../playwright.config'
import { VIDEO_TEXT } from '../../src/shared/texts'
import { startCoturn, TURNSERVER } from '../helpers/coturn'
import { type E2EServer, passwordOf } from './fixtures'
import { VideoPage } from './pages/video'
import { expect, openLoggedIn, test } from './proxied'

test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      // A camera and a microphone that play a test pattern and a tone, granted without asking.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      // The two contexts meet on loopback: keep host candidates as plain addresses (no mDNS names,
      // which nothing resolves in a container) and let WebRTC use the loopback interface.
      '--disable-features=WebRtcHideLocalIpsWithMdns',
      '--allow-loopback-in-peer-connection',
    ],
  },
})
test.describe.configure({ timeout: 120_000 })

async function pageFor(browser: Browser): Promise<Page> {
  const context = await browser.newContext()
  return context.newPage()
}

test('two people see each other: both decode the other’s video', async ({ browser, server }) => {
  await server.createUser('vera', ['video/standup:r'], 'Vera')
  const admin = new VideoPage(await pageFor(browser))
  const vera = new VideoPage(await pageFor(browser))
  await admin.open(server, await server.login(), 'standup')
  await admin.join('Ada')
  await vera.open(server, await server.login('vera', passwordOf('vera')), 'standup')
  await vera.join()
  await admin.decodes('Vera')
  await vera.decodes('Ada')
  await expect(admin.tile('Vera')).toHaveAttribute('data-route', 'direct')

  // The participant list shows each connection's quality.
  await vera.page.getByRole('button', { name: 'Participants' }).click()
  const people = vera.page.getByRole('complementary', { name: 'Participants' })
  await expect(people.getByText('Ada')).toBeVisible()
  await expect(people.locator('.video-q')).toHaveText(/good|fair|poor/)
  await vera.page.screenshot({ path: 'test-results/video-desktop.png' })

  // Mute and camera off reach the other side.
  await admin.page.getByRole('button', { name: 'Mute' }).click()
  await admin.page.getByRole('button', { name: 'Turn camera off' }).click()
  await expect(vera.tile('Ada').getByLabel('Muted')).toBeVisible()
  await expect(vera.tile('Ada').locator('video')).toBeHidden()

  await vera.page.getByRole('button', { name: 'Participants' }).click()
  // A phone, portrait: tiles and controls fit without sideways scrolling.
  await vera.page.setViewportSize({ width: 375, height: 740 })
  await expect(vera.page.getByRole('button', { name: 'Leave' })).toBeInViewport()
  expect(await vera.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await vera.page.screenshot({ path: 'test-results/video-375.png' })
  await vera.page.setViewportSize({ width: 740, height: 375 })
  await expect(vera.page.getByRole('button', { name: 'Leave' })).toBeInViewport()
  await vera.page.screenshot({ path: 'test-results/video-375-landscape.png' })

  // Leave and rejoin: the other side drops the tile, then decodes the newcomer again.
  await vera.leave()
  await expect(admin.tile('Vera')).toHaveCount(0)
  await vera.rejoin('standup')
  await admin.decodes('Vera')
  await vera.decodes('Ada')
  await admin.page.context().close()
  await vera.page.context().close()
})

test('through the TURN relay only, with the credentials the server issued', async ({ browser, server }) => {
  test.skip(!fs.existsSync(TURNSERVER), `coturn is not installed (${TURNSERVER}); .ci/run installs it`)
  const secret = `e2e-${Date.now()}`
  const turn = await startCoturn(secret)
  const port = turn.port
  try {
    const token = await server.login()
    await setting(server, token, 'webrtc_key', secret)
    await setting(server, token, 'webrtc_port', port)
    await server.createUser('rudi', ['video/relayed:r'], 'Rudi')
    const admin = new VideoPage(await pageFor(browser))
    const rudi = new VideoPage(await pageFor(browser))
    await admin.open(server, token, 'relayed', '?ice=relay')
    await admin.join('Ada')
    await rudi.open(server, await server.login('rudi', passwordOf('rudi')), 'relayed', '?ice=relay')
    await rudi.join()
    await admin.decodes('Rudi')
    await rudi.decodes('Ada')
    await expect(admin.tile('Rudi')).toHaveAttribute('data-route', 'relay')
    await expect(rudi.tile('Ada')).toHaveAttribute('data-route', 'relay')
    // coturn saw the server's credentials (username "<expiry>:<user>") and allocated relays for them.
    expect(turn.log()).toMatch(/:admin/)
    await admin.page.context().close()
    await rudi.page.context().close()
  } finally {
    await setting(server, await server.login(), 'webrtc_key', '')
    turn.stop()
  }
})

test('offline, the lobby says calls need the server instead of "No calls yet"', async ({
  page,
  server,
  link,
  through,
}) => {
  await openLoggedIn(page, through, await server.login(), '/video')
  await expect(page.getByText('No calls yet.')).toBeVisible()
  link.offline = true
  await page.goto(`${through.ui}/video`)
  await expect(page.getByRole('status').filter({ hasText: VIDEO_TEXT.callsOffline })).toBeVisible()
  await expect(page.getByText('No calls yet.')).toHaveCount(0)
})

test('a peer that loses the network comes back into the call', async ({ browser, server, link, through }) => {
  await server.createUser('otto', ['video/field:r'], 'Otto')
  const admin = new VideoPage(await pageFor(browser))
  const otto = new VideoPage(await pageFor(browser))
  await admin.open(server, await server.login(), 'field')
  await admin.join('Ada')
  await otto.open(through, await server.login('otto', passwordOf('otto')), 'field')
  await otto.join()
  await admin.decodes('Otto')
  await otto.decodes('Ada')

  link.offline = true
  // The server lets Otto out of the room when his socket goes; his console says it reconnects.
  await expect(admin.tile('Otto')).toHaveCount(0, { timeout: 45_000 })
  await expect(otto.call).toHaveAttribute('data-status', 'rejoining', { timeout: 45_000 })
  link.offline = false
  // Back: he joins again by himself and both decode each other once more.
  await expect(otto.call).toHaveAttribute('data-status', 'joined', { timeout: 60_000 })
  await admin.decodes('Otto', 45_000)
  const frames = await otto.decodes('Ada', 45_000)
  await otto.framesGrow('Ada', frames)
  await admin.page.context().close()
  await otto.page.context().close()
})

test('an invitation rings, and Accept joins the room', async ({ browser, server }) => {
  await server.createUser('caller', ['messages/call:c', 'users:r'], 'Cal')
  await server.createUser('cora', [], 'Cora')
  const caller = await pageFor(browser)
  const cora = await pageFor(browser)
  await openLoggedIn(cora, server, await server.login('cora', passwordOf('cora')), '/')
  await expect(cora.getByRole('main')).toBeVisible()
  await openLoggedIn(caller, server, await server.login('caller', passwordOf('caller')), '/users/cora')
  await caller.getByRole('button', { name: 'Call' }).click()
  await expect(caller).toHaveURL(/\/ui\/video\/call-[a-z0-9]+$/)
  const room = new URL(caller.url()).pathname.split('/').pop()!
  const callerVideo = new VideoPage(caller)
  await callerVideo.join('Cal')

  const invite = cora.getByRole('alertdialog', { name: 'Cal invites you to a call' })
  await expect(invite).toBeVisible({ timeout: 20_000 })
  await invite.getByRole('link', { name: 'Accept' }).click()
  await expect(cora).toHaveURL(new RegExp(`/ui/video/${room}$`))
  const coraVideo = new VideoPage(cora)
  await coraVideo.join()
  await callerVideo.decodes('Cora')
  await coraVideo.decodes('Cal')
  // The call is recorded as accepted, for both.
  const calls = await server.api<Array<{ room: string; status: string }>>('/api/video/calls', {
    token: await server.login('cora', passwordOf('cora')),
  })
  expect(calls.body).toEqual([expect.objectContaining({ room, status: 'accepted' })])
  await caller.context().close()
  await cora.context().close()
})

test('a user who is not allowed cannot join the room', async ({ browser, server }) => {
  await server.createUser('nosy', ['video/elsewhere:r'], 'Nosy')
  const admin = new VideoPage(await pageFor(browser))
  await admin.open(server, await server.login(), 'board')
  await admin.join('Ada')
  const nosy = new VideoPage(await pageFor(browser))
  await openLoggedIn(nosy.page, server, await server.login('nosy', passwordOf('nosy')), '/video/board')
  // Told before the lobby: no camera preview, no Join button, no Rejoin (issue 36 #13).
  await expect(nosy.page.getByRole('heading', { name: 'You cannot join this room' })).toBeVisible()
  await expect(nosy.page.getByRole('alert')).toHaveText('You are not invited to this room')
  await expect(nosy.page.getByRole('button', { name: 'Join', exact: true })).toHaveCount(0)
  await expect(nosy.page.getByRole('button', { name: /^Rejoin/ })).toHaveCount(0)
  await expect(admin.page.getByText('Only you')).toBeVisible()
  await expect(admin.page.locator('figure.video-tile')).toHaveCount(1)
  await admin.page.context().close()
  await nosy.page.context().close()
})

/** Sets a setting through the API as the Settings screen does: patch it, or create it the first time. */
async function setting(server: E2EServer, token: string, id: string, value: unknown): Promise<void> {
  let res = await server.api(`/api/settings/${id}`, { method: 'PATCH', json: { value }, token })
  if (res.status === 404) res = await server.api('/api/settings', { json: { _id: id, value }, token })
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
}
