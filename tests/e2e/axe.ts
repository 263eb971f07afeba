/**
 * axe-core's accessibility findings on a page, one line a rule broken (`id: help — targets`), so a spec
 * can `expect(await axeViolations(page)).toEqual([])` and read what is wrong from the diff.
 */
import type { Page } from '@playwright/test'
import axe from 'axe-core'

export interface AxeScope {
  /** CSS selector of the part checked; the whole document when absent or when nothing matches. */
  within?: string
  /** Only these rule tags (e.g. ['wcag2a', 'wcag2aa']); every rule when absent. */
  runOnly?: string[]
}

export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  // evaluate, not addScriptTag: the console's CSP (rightly) refuses inline scripts.
  await page.evaluate(axe.source)
  return page.evaluate(async ({ within, runOnly }) => {
    const w = window as unknown as { axe: typeof axe }
    const context = (within && document.querySelector(within)) || document
    const r = await w.axe.run(context, runOnly ? { runOnly } : {})
    return r.violations.map(
      (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
  }, scope)
}
