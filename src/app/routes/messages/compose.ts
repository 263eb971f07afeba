/**
 * The Messages composer's pure parts (docs/using/messages.md): which recipients a typed entry is,
 * checked with the same rules as the server (src/shared/email.ts, isE164), and the body of the
 * `message-requests` document a draft becomes. No React here, so it is tested in node.
 */
import { isValidEmail } from '../../../shared/email'
import { isE164, type MessageChannel, SMS_TEXT_MAX } from '../../../shared/messaging'
import { isHttpUrl, isSitePath } from '../../../shared/safe-urls'

/** The composer's tabs, one per queued channel. */
export const COMPOSER_TABS = ['email', 'sms', 'push', 'call'] as const
export type ComposerTab = (typeof COMPOSER_TABS)[number]

export const TAB_LABEL: Record<ComposerTab, string> = {
  email: 'Email',
  sms: 'SMS',
  push: 'Push',
  call: 'Call',
}

/** The template kind each tab sends; call has none. */
export const TEMPLATE_KIND: Record<ComposerTab, string | null> = {
  email: 'email',
  sms: 'sms',
  push: 'push',
  call: null,
}

/** One chosen recipient, as the server's `to` entry (`user:ann`, `group:team`, an address, a number). */
export interface Pick {
  entry: string
  label: string
  kind: 'user' | 'group' | 'address'
}

/**
 * A typed entry as a recipient of `tab`, or the reason it is not one (the server's words, so an entry
 * refused here would be refused there too). Phone numbers lose spaces, dots, dashes and brackets first.
 */
export function typedRecipient(tab: ComposerTab, raw: string): Pick | { error: string } {
  const value = raw.trim()
  if (!value) return { error: 'Type an address or a phone number' }
  if (value.includes('@')) {
    if (!isValidEmail(value)) return { error: `'${value}' is not a valid e-mail address` }
    if (tab !== 'email') return { error: `'${value}' cannot receive ${noun(tab)}` }
    return { entry: value, label: value, kind: 'address' }
  }
  if (value.startsWith('+')) {
    const phone = value.replace(/[\s().-]/g, '')
    if (!isE164(phone)) {
      return { error: `'${value}' is not a phone number in international E.164 form, such as +15551234567` }
    }
    if (tab !== 'sms') return { error: `'${value}' cannot receive ${noun(tab)}` }
    return { entry: phone, label: phone, kind: 'address' }
  }
  return {
    error:
      tab === 'sms'
        ? 'Type a phone number in international form (+15551234567), or pick a user or group'
        : tab === 'email'
          ? 'Type an e-mail address, or pick a user or group'
          : 'Pick a user or group',
  }
}

function noun(tab: ComposerTab): string {
  return tab === 'sms' ? 'an SMS' : tab === 'call' ? 'a call' : tab === 'push' ? 'a push' : 'an e-mail'
}

export interface Draft {
  tab: ComposerTab
  to: Pick[]
  bcc: string
  /** A template id, or '' for free text. */
  template: string
  /** The data JSON, as typed. */
  data: string
  subject: string
  text: string
  html: string
  room: string
  title: string
  link: string
}

export const EMPTY_DRAFT: Draft = {
  tab: 'email',
  to: [],
  bcc: '',
  template: '',
  data: '',
  subject: '',
  text: '',
  html: '',
  room: '',
  title: '',
  link: '',
}

/** The data JSON as an object, undefined when empty, or the error to show. */
export function parseData(
  text: string,
): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: undefined }
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: 'Data must be a JSON object, such as {"name": "Ann"}' }
    }
    return { ok: true, value: value as Record<string, unknown> }
  } catch (e) {
    return { ok: false, error: `Data is not valid JSON: ${e instanceof Error ? e.message : String(e)}` }
  }
}

export function bccList(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * The draft as the body of a `message-requests` document (the fields of POST /api/{channel}), or the
 * first problem with it.
 */
export function requestBody(
  draft: Draft,
): { ok: true; body: Record<string, unknown> } | { ok: false; error: string } {
  const channel = draft.tab as MessageChannel
  if (draft.to.length === 0) return { ok: false, error: 'Pick at least one recipient' }
  const body: Record<string, unknown> = { channel, to: draft.to.map((p) => p.entry) }
  if (channel === 'call') {
    const room = draft.room.trim()
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(room)) {
      return { ok: false, error: 'A call needs the room to join: letters, digits, - and _' }
    }
    body.room = room
    if (draft.title.trim()) body.title = draft.title.trim()
    if (draft.text.trim()) body.body = draft.text.trim()
    return { ok: true, body }
  }
  if (channel === 'email') {
    const bcc = bccList(draft.bcc)
    const bad = bcc.find((b) => !isValidEmail(b))
    if (bad) return { ok: false, error: `'${bad}' is not a valid e-mail address` }
    if (bcc.length) body.bcc = bcc
  }
  if (draft.template) {
    const data = parseData(draft.data)
    if (!data.ok) return data
    body.template = draft.template
    if (data.value) body.data = data.value
    return { ok: true, body }
  }
  if (channel === 'email') {
    if (!draft.subject.trim()) return { ok: false, error: 'An e-mail needs a subject, or a template' }
    if (!draft.text.trim() && !draft.html.trim())
      return { ok: false, error: 'An e-mail needs a text, or a template' }
    body.subject = draft.subject.trim()
    if (draft.text.trim()) body.text = draft.text
    if (draft.html.trim()) body.html = draft.html
    return { ok: true, body }
  }
  if (channel === 'push') {
    if (!draft.title.trim()) return { ok: false, error: 'A push needs a title, or a template' }
    const link = draft.link.trim()
    if (link && !isSitePath(link) && !isHttpUrl(link)) {
      return { ok: false, error: 'The link must be a path on this site (/ui/…) or an http(s) address' }
    }
    body.title = draft.title.trim()
    if (draft.text.trim()) body.body = draft.text.trim()
    if (link) body.link = link
    return { ok: true, body }
  }
  if (!draft.text.trim()) return { ok: false, error: 'An SMS needs text, or a template' }
  if (draft.text.length > SMS_TEXT_MAX)
    return { ok: false, error: `An SMS is at most ${SMS_TEXT_MAX} characters` }
  body.text = draft.text
  return { ok: true, body }
}
