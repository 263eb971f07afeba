/**
 * Watching a page for Content-Security-Policy violations (browser-security.spec.ts, csp-violations.spec.ts).
 * Two sources, because neither alone sees everything: the `securitypolicyviolation` event in the page
 * (the directive and what was blocked; an init script, so it is there before the console's own code
 * runs, on every navigation) and the browser's console messages ("Refused to apply inline style
 * because it violates the following Content Security Policy directive …"), which also survive a
 * navigation that replaced the page before it was read.
 */
import type { BrowserContext, Page } from '@playwright/test'

/** Installs the in-page listener on every page of the context; read it with violationsInPage. */
export async function listenForViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const list: string[] = []
    ;(window as never as { cspViolations: string[] }).cspViolations = list
    document.addEventListener('securitypolicyviolation', (e) =>
      list.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    )
  })
}

/** The violations the current document has met so far (since its navigation). */
export async function violationsInPage(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as never as { cspViolations?: string[] }).cspViolations ?? [])
}

/** Every CSP refusal the console prints and every page error, across navigations. */
export function watchViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`))
  return seen
}
