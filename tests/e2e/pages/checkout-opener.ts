/**
 * The opener side of the checkout specs: src/app/api/checkout-popup.ts bundled as a shop page would
 * load it, put into a logged-in console page, and a call of its openCheckout; a product and a code
 * to sell.
 */
import path from 'node:path'
import type { Page } from '@playwright/test'
import { buildSync } from 'esbuild'
import { type E2EServer, expect, openLoggedIn } from '../fixtures'

export const checkoutHelper = buildSync({
  entryPoints: [path.resolve(import.meta.dirname, '../../../src/app/api/checkout-popup.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  globalName: 'MomentumCheckout',
}).outputFiles[0]!.text

export type CheckoutResult = {
  type: string
  transaction: string
  status: string
  total: number
  currency: string
}
export type Opener = { MomentumCheckout: { openCheckout(product: string): Promise<CheckoutResult> } }

/** A logged-in console page with the opener helper loaded. */
export async function openerPage(page: Page, server: E2EServer, admin: string): Promise<void> {
  await openLoggedIn(page, server, admin, '/')
  // Evaluated rather than a <script> tag: the console's CSP (script-src 'self') rightly refuses inline code.
  await page.evaluate(`${checkoutHelper};window.MomentumCheckout = MomentumCheckout`)
}

export const startCheckout = (page: Page, product: string): Promise<CheckoutResult> =>
  page.evaluate((id) => (window as never as Opener).MomentumCheckout.openCheckout(id), product)

export const eur = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100)

let seq = 0
/** A product at €12.50 and a 10 % code for it, made through the API as a shop owner would. */
export async function seedShop(server: E2EServer, admin: string): Promise<{ product: string; code: string }> {
  const n = `${Date.now().toString(36)}${++seq}`
  const product = `poster-${n}`
  const code = `TEN${n}`.toUpperCase()
  const p = await server.api('/api/products', {
    json: { _id: product, name: 'Lantern poster', price: 1250, currency: 'EUR' },
    token: admin,
  })
  expect(p.status).toBeLessThan(300)
  const d = await server.api('/api/discounts', { json: { _id: code, percent: 10 }, token: admin })
  expect(d.status).toBeLessThan(300)
  return { product, code }
}
