/**
 * Page model of /video/{room} (issue 18): the pre-join screen, the call, its tiles and controls. A
 * tile carries what the console read from RTCPeerConnection.getStats() for that peer:
 * `data-frames-decoded` (inbound video frames decoded) and `data-route` (direct or relay).
 */
import { expect, type Locator, type Page } from '@playwright/test'
import type { E2EServer } from '../fixtures'
import { openLoggedIn } from '../fixtures'

export class VideoPage {
  readonly call: Locator
  constructor(readonly page: Page) {
    this.call = page.locator('section.video-call')
  }

  /** Opens the room logged in with `token` (through `server`, which may be a proxy's view). */
  async open(server: E2EServer, token: string, room: string, query = ''): Promise<void> {
    await openLoggedIn(this.page, server, token, `/video/${room}${query}`)
    await expect(this.page.getByRole('heading', { name: `Join ${room}` })).toBeVisible()
  }

  async join(name?: string): Promise<void> {
    if (name !== undefined) await this.page.getByLabel('Your name').fill(name)
    // The preview's stream must be open before Join is enabled.
    await expect(this.page.getByRole('button', { name: 'Join', exact: true })).toBeEnabled()
    await this.page.getByRole('button', { name: 'Join', exact: true }).click()
    await expect(this.call).toBeVisible()
  }

  tile(name: string): Locator {
    return this.page.locator(`figure.video-tile[data-name="${name}"]:not(.video-tile-self)`)
  }

  /** Waits until this page decodes video frames from `name` (getStats framesDecoded > 0). */
  async decodes(name: string, timeout = 30_000): Promise<number> {
    const tile = this.tile(name)
    await expect(tile).toBeVisible({ timeout })
    let frames = 0
    await expect(async () => {
      frames = Number(await tile.getAttribute('data-frames-decoded'))
      expect(frames).toBeGreaterThan(0)
    }).toPass({ timeout })
    return frames
  }

  /** Waits until the frames decoded from `name` grow past `than` (the picture is live, not frozen). */
  async framesGrow(name: string, than: number, timeout = 30_000): Promise<void> {
    await expect(async () => {
      expect(Number(await this.tile(name).getAttribute('data-frames-decoded'))).toBeGreaterThan(than)
    }).toPass({ timeout })
  }

  async leave(): Promise<void> {
    await this.page.getByRole('button', { name: 'Leave' }).click()
    await expect(this.page.getByRole('heading', { name: 'You left the call' })).toBeVisible()
  }

  async rejoin(room: string): Promise<void> {
    await this.page.getByRole('button', { name: `Rejoin ${room}` }).click()
    await this.join()
  }
}
