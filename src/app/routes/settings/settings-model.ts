/**
 * The Settings screen's form model (SPEC §3 known settings) as pure functions: settings rows → one
 * form value, validation with a message per field, and form → the settings whose value changed (each
 * saved as its own document {_id, value} with put). Unknown fields inside pwa/theme are kept as they
 * were, so a newer server's additions survive an edit from this screen.
 */

import { ACTION_RUNS_DAYS_MAX, ACTION_RUNS_KEEP_MAX, ACTION_RUNS_SETTING } from '../../../shared/actions'
import { SETTING_IDS } from '../../../shared/constants'
import { isValidEmail } from '../../../shared/email'
import { grouped } from '../../../shared/plural'
import { isSafeImageSrc } from '../../../shared/safe-urls'

export interface ThemeForm {
  background: string
  primary: string
  accent: string
  darkMode: boolean
}

export interface SettingsForm {
  title: string
  description: string
  version: string
  logo: string
  contact: string
  public_url: string
  privacy_policy_url: string
  terms_of_service_url: string
  pwa: { name: string; short_name: string }
  theme: ThemeForm
  stripe_token: string
  webrtc_key: string
  /** Text while editing; saved as a number. */
  webrtc_port: string
  /** Run-history pruning of actions (docs/operating/actions.md); text while editing, empty: the server's default. */
  action_runs: { keep: string; days: string }
}

/**
 * Ids this screen writes: the SPEC §3 settings but push_public_key (the server's, shown read-only), and
 * action_runs, the actions' run-history pruning (not a SPEC §3 setting, but one an admin tunes).
 */
export type EditableId = Exclude<(typeof SETTING_IDS)[number], 'push_public_key'> | typeof ACTION_RUNS_SETTING
export const EDITABLE_IDS: readonly EditableId[] = [
  ...SETTING_IDS.filter(
    (id): id is Exclude<EditableId, typeof ACTION_RUNS_SETTING> => id !== 'push_public_key',
  ),
  ACTION_RUNS_SETTING,
]

/** Each editable setting's name in the "saved" toast. */
export const SETTING_LABELS: Record<EditableId, string> = {
  title: 'Title',
  description: 'Description',
  version: 'Version',
  logo: 'Logo',
  contact: 'Contact',
  public_url: 'Public URL',
  privacy_policy_url: 'Privacy Policy link',
  terms_of_service_url: 'Terms of Service link',
  pwa: 'App name',
  theme: 'Theme',
  stripe_token: 'Stripe token',
  webrtc_key: 'WebRTC key',
  webrtc_port: 'WebRTC port',
  action_runs: 'Action run history',
}

export const DEFAULT_THEME: ThemeForm = {
  background: '#f6f7f9',
  primary: '#1f6feb',
  accent: '#f59e0b',
  darkMode: false,
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

export function formFromValues(values: ReadonlyMap<string, unknown>): SettingsForm {
  const pwa = obj(values.get('pwa'))
  const theme = obj(values.get('theme'))
  const runs = obj(values.get(ACTION_RUNS_SETTING))
  return {
    title: str(values.get('title')),
    description: str(values.get('description')),
    version: str(values.get('version')),
    logo: str(values.get('logo')),
    contact: str(values.get('contact')),
    public_url: str(values.get('public_url')),
    privacy_policy_url: str(values.get('privacy_policy_url')),
    terms_of_service_url: str(values.get('terms_of_service_url')),
    pwa: { name: str(pwa.name), short_name: str(pwa.short_name) },
    theme: {
      background: str(theme.background) || DEFAULT_THEME.background,
      primary: str(theme.primary) || DEFAULT_THEME.primary,
      accent: str(theme.accent) || DEFAULT_THEME.accent,
      darkMode: theme.darkMode === true,
    },
    stripe_token: str(values.get('stripe_token')),
    webrtc_key: str(values.get('webrtc_key')),
    webrtc_port: str(values.get('webrtc_port')),
    action_runs: { keep: str(runs.keep), days: str(runs.days) },
  }
}

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i
const isUrl = (v: string, protocols: readonly string[]) => {
  try {
    return protocols.includes(new URL(v).protocol)
  } catch {
    return false
  }
}

export type SettingsErrors = Partial<Record<string, string>>

/** Field path (e.g. `theme.primary`) → what is wrong. Empty optional fields are fine. */
export function validateSettings(f: SettingsForm): SettingsErrors {
  const e: SettingsErrors = {}
  if (!f.title.trim()) e.title = 'The title is shown everywhere; it cannot be empty.'
  else if (f.title.length > 80) e.title = 'Keep the title to 80 characters or fewer.'
  if (f.pwa.short_name.length > 12)
    e['pwa.short_name'] = 'Home screens cut short names after about 12 characters.'
  // The server's own rule (shared/safe-urls.ts), so the form never offers what the server refuses.
  if (f.logo && !isSafeImageSrc(f.logo)) e.logo = 'Use an address (https://… or /path) or a data:image URL.'
  if (f.public_url && !isUrl(f.public_url, ['http:', 'https:']))
    e.public_url = 'Use a full address starting with https:// (or http://).'
  // The footer links these for every visitor: http(s) only (the server refuses anything else too).
  for (const k of ['privacy_policy_url', 'terms_of_service_url'] as const)
    if (f[k].trim() && !isUrl(f[k].trim(), ['http:', 'https:']))
      e[k] = 'Use a full address starting with https:// (or http://), or leave it empty.'
  if (f.contact && !isValidEmail(f.contact) && !isUrl(f.contact, ['http:', 'https:', 'mailto:', 'tel:']))
    e.contact = 'Use an e-mail address or a link (https://, mailto:, tel:).'
  for (const k of ['background', 'primary', 'accent'] as const)
    if (!HEX.test(f.theme[k])) e[`theme.${k}`] = 'Use a colour like #1f6feb.'
  if (f.webrtc_port.trim()) {
    const n = Number(f.webrtc_port)
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      e.webrtc_port = 'A port is a whole number from 1 to 65535.'
  }
  // The server's bounds (shared/actions.ts runRetention), so the form never offers what it refuses.
  if (!wholeIn(f.action_runs.keep, ACTION_RUNS_KEEP_MAX))
    e['action_runs.keep'] = `A whole number from 1 to ${grouped(ACTION_RUNS_KEEP_MAX)}, or empty.`
  if (!wholeIn(f.action_runs.days, ACTION_RUNS_DAYS_MAX))
    e['action_runs.days'] = `A whole number from 1 to ${grouped(ACTION_RUNS_DAYS_MAX)}, or empty.`
  return e
}

/** Empty (the default), or a whole number from 1 to max. */
function wholeIn(v: string, max: number): boolean {
  if (!v.trim()) return true
  const n = Number(v)
  return Number.isInteger(n) && n >= 1 && n <= max
}

/** The action_runs value: the numbers given, the rest left to the server's defaults; null when none. */
function runsValue(f: SettingsForm['action_runs'], before: unknown): Record<string, unknown> | null {
  const value: Record<string, unknown> = { ...obj(before) }
  for (const k of ['keep', 'days'] as const) {
    if (f[k].trim()) value[k] = Number(f[k])
    else delete value[k]
  }
  return Object.keys(value).length ? value : null
}

/** The stored value of each editable setting, given the form and what was stored before. */
export function valuesFromForm(
  f: SettingsForm,
  before: ReadonlyMap<string, unknown>,
): Record<EditableId, unknown> {
  return {
    title: f.title.trim(),
    description: f.description,
    version: f.version.trim(),
    logo: f.logo.trim(),
    contact: f.contact.trim(),
    public_url: f.public_url.trim(),
    privacy_policy_url: f.privacy_policy_url.trim(),
    terms_of_service_url: f.terms_of_service_url.trim(),
    pwa: { ...obj(before.get('pwa')), name: f.pwa.name, short_name: f.pwa.short_name },
    theme: { ...obj(before.get('theme')), ...f.theme },
    stripe_token: f.stripe_token.trim(),
    webrtc_key: f.webrtc_key.trim(),
    webrtc_port: f.webrtc_port.trim() ? Number(f.webrtc_port) : null,
    action_runs: runsValue(f.action_runs, before.get(ACTION_RUNS_SETTING)),
  }
}

/** Settings whose value differs from what is stored (a missing setting left empty is not a change). */
export function changedSettings(
  f: SettingsForm,
  before: ReadonlyMap<string, unknown>,
): [EditableId, unknown][] {
  const next = valuesFromForm(f, before)
  return EDITABLE_IDS.filter((id) => {
    const was = before.get(id)
    const now = next[id]
    if (was === undefined && (now === '' || now === null)) return false
    return JSON.stringify(was) !== JSON.stringify(now)
  }).map((id) => [id, next[id]])
}
