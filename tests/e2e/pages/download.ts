/** Page model of the share-link download page (/ui/download?t=…, no shell, no login). */
import fs from 'node:fs'
import { expect, type Locator, type Page } from '@playwright/test'
import { DOWNLOAD_TEXT } from '../../../src/shared/texts'

export class DownloadPage {
  readonly heading: Locator
  readonly button: Locator
  readonly progress: Locator
  readonly percent: Locator
  readonly size: Locator
  readonly type: Locator
  readonly refused: Locator
  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 })
    this.button = page.getByRole('button', {
      name: new RegExp(`^(${DOWNLOAD_TEXT.download}|${DOWNLOAD_TEXT.again})$`),
    })
    this.progress = page.getByRole('progressbar', { name: DOWNLOAD_TEXT.progressLabel })
    this.percent = page.getByTestId('download-percent')
    this.size = page.getByTestId('download-size')
    this.type = page.getByTestId('download-type')
    this.refused = page.getByTestId('download-refused')
  }

  /** Opens a link: `url` is what POST /api/share answered (absolute path) or a full URL. */
  async open(base: string, url: string): Promise<void> {
    await this.page.goto(new URL(url, base).href)
  }

  async expectFile(name: string): Promise<void> {
    await expect(this.heading).toHaveText(name)
    await expect(this.button).toBeEnabled()
  }

  /**
   * Starts a MutationObserver that records every percentage the page shows, so a test can tell a real
   * progress bar (intermediate values) from one that jumps from nothing to done.
   */
  async recordPercentages(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { __percents: string[] }).__percents = seen
      const note = () => {
        const text = document.querySelector('[data-testid="download-percent"]')?.textContent
        if (text && seen.at(-1) !== text) seen.push(text)
      }
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      })
    })
  }

  percentages(): Promise<number[]> {
    return this.page.evaluate(() =>
      (window as unknown as { __percents: string[] }).__percents.map((p) => Number.parseInt(p, 10)),
    )
  }

  /** Clicks Download and returns the saved file's bytes. */
  async download(): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.button.click()])
    const file = await download.path()
    return { name: download.suggestedFilename(), bytes: fs.readFileSync(file) }
  }

  async expectRefused(title: string, message: string): Promise<void> {
    await expect(this.refused.getByRole('heading', { level: 1 })).toHaveText(title)
    await expect(this.refused.getByRole('alert')).toHaveText(message)
  }
}
