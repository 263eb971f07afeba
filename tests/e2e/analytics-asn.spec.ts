/**
 * The trace of an address names its autonomous system (issue 36 #12): 8.8.8.8 is AS15169, Google LLC,
 * in the packaged offline database; the sources are named and linked as their CC BY 4.0 licence asks.
 * Screenshots at 1280 and 375 px in /tmp/shots/.
 */
import { ASN_SOURCE_TEXT } from '../../src/shared/texts'
import { expect, openLoggedIn, test } from './fixtures'
import { WIDTHS } from './widths'

for (const { name: width, viewport } of WIDTHS) {
  test(`at ${width} width: the trace view shows the address's AS and organisation`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize(viewport)
    await openLoggedIn(page, server, await server.login(), '/analytics/users?ip=8.8.8.8')
    await expect(page.getByRole('heading', { name: 'Trace: Address 8.8.8.8', level: 1 })).toBeVisible()
    // The server reads the ASN database on its first lookup (about a second, more on a busy machine).
    await expect(page.getByTestId('trace-asn')).toHaveText('AS15169 Google LLC', { timeout: 20_000 })
    await expect(page.getByRole('link', { name: ASN_SOURCE_TEXT.link })).toHaveAttribute(
      'href',
      ASN_SOURCE_TEXT.href,
    )
    await page.screenshot({ path: `/tmp/shots/analytics-trace-asn-${width}.png`, fullPage: true })
  })
}
