/**
 * The two widths the console-shell issue asks every shell behaviour to be tested at: a desktop and a
 * phone under the 576 px breakpoint, where the sidebar becomes a drawer. Specs loop over this list
 * (`for (const { name, viewport } of WIDTHS) test.describe(…, () => { test.use({ viewport }) … })`).
 */
export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 375, height: 740 }

export const WIDTHS = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const
