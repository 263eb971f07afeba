/**
 * The user-facing strings and numbers in src/shared come from SPEC.md. This reads the spec beside the
 * repo (../shared/SPEC.md) and checks that each literal still appears there, so the product and the
 * spec cannot drift apart silently.
 */
import { describe, expect, it } from 'vitest'
import * as C from '../../src/shared/constants'
import { UI_TEXT, VALIDATION } from '../../src/shared/texts'
import { spec } from '../helpers/spec'

describe.runIf(spec)('shared strings match SPEC.md', () => {
  it.each(Object.entries(VALIDATION))('validation %s', (_key, text) => {
    expect(spec).toContain(text)
  })
  it.each(Object.entries(UI_TEXT))('ui text %s', (_key, text) => {
    expect(spec).toContain(text)
  })
  it('constants of §9', () => {
    expect(spec).toContain(`Websocket reconnect ${C.WS_RECONNECT_MS / 1000} s`)
    expect(spec).toContain(`install prompt delay ${C.INSTALL_PROMPT_DELAY_MS / 1000} s`)
    expect(spec).toContain(`Toast timeout ${C.TOAST_TIMEOUT_MS} ms, tick ${C.TOAST_TICK_MS} ms`)
    expect(spec).toContain(`Narrow breakpoint ${C.NARROW_BREAKPOINT_PX} px`)
    expect(spec).toContain(
      `Sidebar ${C.SIDEBAR_EXPANDED_PX} px expanded, ${C.SIDEBAR_COLLAPSED_PX} px collapsed`,
    )
    expect(spec).toContain(`Breadcrumb update debounced ${C.BREADCRUMB_DEBOUNCE_MS} ms`)
    expect(spec).toContain(`Toolbar darkens after scrolling over ${C.TOOLBAR_DARKEN_SCROLL_PX} px`)
    expect(spec).toContain(`SDK version ${C.SDK_VERSION}`)
    expect(spec).toContain(`Storage copy suffix '${C.STORAGE_COPY_SUFFIX}'`)
    expect(spec).toContain(`Chat area max height ${C.CHAT_MAX_HEIGHT}`)
  })
  it('the ten modules of §7', () => {
    expect(spec).toContain(`Modules: ${C.MODULES.join(', ')}.`)
  })
})
