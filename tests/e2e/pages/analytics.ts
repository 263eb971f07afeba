/**
 * Page model of the analytics dashboards (/analytics/pages, /analytics/users and its trace view), and
 * the server-side reads the analytics specs assert with (GET /api/analytics/visits as admin).
 */
import { expect, type Locator, type Page } from '@playwright/test'
import type { AnalyticsRecord, Visit, VisitList } from '../../../src/shared/analytics'
import type { E2EServer } from '../fixtures'

export class AnalyticsPage {
  constructor(readonly page: Page) {}

  async openPages(ui: string): Promise<void> {
    await this.page.goto(`${ui}/analytics/pages`)
    await expect(this.page.getByRole('heading', { name: 'Page Analytics', level: 1 })).toBeVisible()
  }

  async openUsers(ui: string): Promise<void> {
    await this.page.goto(`${ui}/analytics/users`)
    await expect(this.page.getByRole('heading', { name: 'User Analytics', level: 1 })).toBeVisible()
  }

  /** A dashboard panel by its title: a chart with its table, or a list. */
  panel(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true })
  }

  /** The panel's table, its "Show as table" opened first when it has one. */
  async table(title: string): Promise<Locator> {
    const panel = this.panel(title)
    const toggle = panel.getByText('Show as table')
    if (await toggle.count()) {
      const open = await panel.locator('details').evaluate((d) => (d as HTMLDetailsElement).open)
      if (!open) await toggle.click()
    }
    return panel.getByRole('table')
  }

  /** The figure under a totals label, e.g. 'Page views'. */
  total(label: string): Locator {
    return this.page.locator('.analytics-totals > div', { hasText: label }).locator('dd').first()
  }

  /** The comparison with the previous period under a totals figure. */
  change(label: string): Locator {
    return this.page.locator('.analytics-totals > div', { hasText: label }).locator('.analytics-change')
  }

  get speedResult(): Locator {
    return this.page.getByTestId('speed-result')
  }

  get offlineNotice(): Locator {
    return this.page.getByTestId('analytics-offline')
  }

  get asOf(): Locator {
    return this.page.getByTestId('analytics-as-of')
  }
}

/** The visits the server stored, newest first (admin read). */
export async function storedVisits(server: E2EServer, query: Record<string, string> = {}): Promise<Visit[]> {
  const token = await server.login()
  const from = String(Date.now() - 8 * 86_400_000)
  const qs = new URLSearchParams({ limit: '1000', from, ...query })
  const res = await server.api<VisitList>(`/api/analytics/visits?${qs}`, { token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.visits
}

/** Posts one visit as a browser would (public, no token); `time` back-dates it. */
export async function postVisit(
  server: E2EServer,
  v: { path: string; visitor: string; session: string; language?: string; referrer?: string; time?: number },
  device: {
    cpu?: number | null
    memory?: number | null
    width?: number
    height?: number
    speed?: number | null
  } = {},
): Promise<string> {
  const record: AnalyticsRecord = [
    v.language ?? 'en-US',
    -60,
    device.cpu ?? 8,
    device.memory ?? 8,
    device.width ?? 1280,
    device.height ?? 800,
    device.speed ?? null,
    v.path,
    v.referrer ?? '',
    v.visitor,
    v.session,
  ]
  const body = v.time === undefined ? record : [...record, v.time]
  const res = await server.api<{ id: string }>('/api/analytics', { json: body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}
