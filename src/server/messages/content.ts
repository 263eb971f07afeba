/**
 * From a POST body to the content of each recipient's record: free content is checked once; a
 * template is rendered once per recipient (LiquidJS in the render pool, src/server/templates) with the
 * caller's data plus `recipient` ({address, user, group, name, email}), and the recipient's own name
 * and e-mail in `name` and `email` over the template's sample data (templateDataFor), so "Hello
 * {{ name }}" greets each member of a group, never every one as the sample's "Ada". Rendering
 * happens here, before anything is stored, so a template error is the request's 400 and the worker
 * only ever sends finished content, the same on every retry.
 */
import crypto from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { isValidEmail } from '../../shared/email'
import { isValidId } from '../../shared/ids'
import { type TemplateRecipient, templateDataFor } from '../../shared/message-recipients'
import {
  type CallContent,
  EMAIL_BODY_MAX,
  EMAIL_SUBJECT_MAX,
  type EmailContent,
  type MessageChannel,
  type PushContent,
  SMS_TEXT_MAX,
  type SmsContent,
} from '../../shared/messaging'
import { decide, type Grant } from '../../shared/permissions'
import { isHttpUrl, isSitePath } from '../../shared/safe-urls'
import { MESSAGING_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { MAX_PUSH_PAYLOAD_BYTES } from '../push/routes'
import type { Services } from '../services'
import { isPlainObject } from '../store/doc'
import type { Doc } from '../store/types'
import { renderTemplate, TEMPLATES } from '../templates/render'
import { requireMayCallInto } from '../video/access'
import { entries, type Recipient } from './recipients'

export type Content = EmailContent | SmsContent | PushContent | CallContent

/** What one request asks for, before recipients are known. */
export interface Draft {
  channel: MessageChannel
  bcc: string[]
  template: Doc | null
  data: Record<string, unknown>
  /** `data` is the template's sample (the sender gave none): each recipient's own fields go over it. */
  fromSample?: boolean
  /** Free content (no template). */
  content: Content | null
}

const BCC_MAX = 20

function optionalString(body: Record<string, unknown>, field: string, max: number): string | null {
  const value = body[field]
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string') throw badRequest(MESSAGING_TEXT.fieldInvalid(field))
  if (value.length > max) throw badRequest(MESSAGING_TEXT.tooLong(field))
  return value
}

async function templateOf(
  services: Services,
  req: FastifyRequest,
  body: Record<string, unknown>,
  kind: string,
  channel: MessageChannel,
): Promise<Doc | null> {
  if (body.template === undefined || body.template === null || body.template === '') return null
  if (!isValidId(body.template)) throw badRequest(MESSAGING_TEXT.templateInvalid)
  const id = body.template
  // Sending a template shows its content to someone: the sender must be able to read it.
  const doc = decide(req.auth.grants, `${TEMPLATES}/${id}`, 'r').allowed
    ? await services.store.get(TEMPLATES, id)
    : null
  if (!doc) throw badRequest(MESSAGING_TEXT.templateNotFound(id))
  if (doc.kind !== kind) throw badRequest(MESSAGING_TEXT.templateWrongKind(id, String(doc.kind), channel))
  return doc
}

/** The data a template renders with: the sender's, or the template's sample when they gave none. */
function dataOf(
  body: Record<string, unknown>,
  template: Doc | null,
): { data: Record<string, unknown>; fromSample: boolean } {
  if (body.data === undefined || body.data === null) {
    return { data: template && isPlainObject(template.sample) ? template.sample : {}, fromSample: true }
  }
  if (!isPlainObject(body.data)) throw badRequest(MESSAGING_TEXT.dataInvalid)
  return { data: body.data, fromSample: false }
}

export async function parseDraft(
  services: Services,
  req: FastifyRequest,
  channel: MessageChannel,
  body: Record<string, unknown>,
): Promise<Draft> {
  if (channel === 'email') {
    const bcc =
      body.bcc === undefined || body.bcc === null ? [] : entries(body.bcc, MESSAGING_TEXT.bccInvalid, BCC_MAX)
    for (const b of bcc) if (!isValidEmail(b)) throw badRequest(MESSAGING_TEXT.emailInvalid(b))
    const template = await templateOf(services, req, body, 'email', channel)
    const subject = optionalString(body, 'subject', EMAIL_SUBJECT_MAX)
    const html = optionalString(body, 'html', EMAIL_BODY_MAX)
    const text = optionalString(body, 'text', EMAIL_BODY_MAX)
    if (template) {
      if (subject || html || text) throw badRequest(MESSAGING_TEXT.contentAndTemplate)
      return { channel, bcc, template, ...dataOf(body, template), content: null }
    }
    if (!subject?.trim()) throw badRequest(MESSAGING_TEXT.subjectMissing)
    if (!html && !text) throw badRequest(MESSAGING_TEXT.bodyMissing)
    return { channel, bcc, template: null, data: {}, content: { subject: subject.trim(), html, text } }
  }
  if (channel === 'sms') {
    const template = await templateOf(services, req, body, 'sms', channel)
    const text = optionalString(body, 'text', SMS_TEXT_MAX * 4)
    if (template) {
      if (text) throw badRequest(MESSAGING_TEXT.contentAndTemplate)
      return { channel, bcc: [], template, ...dataOf(body, template), content: null }
    }
    if (!text?.trim()) throw badRequest(MESSAGING_TEXT.smsTextMissing)
    if (text.length > SMS_TEXT_MAX) throw badRequest(MESSAGING_TEXT.smsTooLong(SMS_TEXT_MAX))
    return { channel, bcc: [], template: null, data: {}, content: { text } }
  }
  if (channel === 'push') {
    const template = await templateOf(services, req, body, 'push', channel)
    const title = optionalString(body, 'title', 200)
    const text = optionalString(body, 'body', 1000)
    const link = optionalString(body, 'link', 2000)
    if (template) {
      if (title || text || link) throw badRequest(MESSAGING_TEXT.contentAndTemplate)
      return { channel, bcc: [], template, ...dataOf(body, template), content: null }
    }
    return { channel, bcc: [], template: null, data: {}, content: pushContent(title, text, link) }
  }
  // No room named: a fresh one, so "Call" on a user needs nothing else (issue 18); it is the caller's,
  // and its invitations say so. A named room lends the caller's way in: they must have one (issue 35).
  const roomCreated = body.room === undefined || body.room === null || body.room === ''
  const room = roomCreated ? newRoom() : body.room
  if (!isValidId(room) || room.length > 128) throw badRequest(MESSAGING_TEXT.roomMissing)
  if (!roomCreated) await requireMayCallInto(services, req, room)
  // The ring names the caller as people know them, not by id (issue 36 #13).
  const fromName = await displayNameOf(services, req.auth.user)
  const title = optionalString(body, 'title', 200) ?? MESSAGING_TEXT.callTitle(fromName ?? 'Someone')
  const text = optionalString(body, 'body', 1000)
  const content: CallContent = {
    room,
    title,
    body: text,
    url: `/ui/video/${encodeURIComponent(room)}`,
    from: req.auth.user,
    fromName,
    roomCreated,
  }
  return { channel, bcc: [], template: null, data: {}, content }
}

/** A user's display name, or their id when they have none (or null for no user). */
async function displayNameOf(services: Services, user: string | null): Promise<string | null> {
  if (!user) return null
  const name = (await services.store.get('users', user))?.name
  return typeof name === 'string' && name.trim() ? name : user
}

/** A room id nobody can guess (96 bits, in lower-case hex so it reads well in a URL). */
function newRoom(): string {
  return `call-${crypto.randomBytes(12).toString('hex')}`
}

/**
 * The content of one recipient's record: the free content, or the template rendered for them. The
 * sender's right to the template itself was checked in parseDraft; its layouts and partials are looked
 * up with the sender's `grants` too (as the template preview does), so a mail never includes a partial
 * its sender may not read: one they may not read is a missing reference, the same 400 as an unknown one.
 */
export async function contentFor(
  services: Services,
  draft: Draft,
  recipient: Recipient,
  grants: readonly Grant[],
): Promise<Content> {
  if (!draft.template) return draft.content!
  const who = templateRecipient(draft, recipient, grants)
  const data = templateDataFor(draft.data, draft.fromSample === true, who)
  const { parts } = await renderTemplate(services, draft.template, data, grants)
  if (draft.channel === 'push')
    return pushContent(parts.title ?? null, parts.body ?? null, parts.link ?? null)
  if (draft.channel === 'sms') {
    const text = (parts.text ?? '').trim()
    if (!text) throw badRequest(MESSAGING_TEXT.smsTextMissing)
    if (text.length > SMS_TEXT_MAX) throw badRequest(MESSAGING_TEXT.smsTooLong(SMS_TEXT_MAX))
    return { text }
  }
  const subject = (parts.subject ?? '').replace(/\s+/g, ' ').trim()
  if (!subject) throw badRequest(MESSAGING_TEXT.subjectMissing)
  const html = parts.html?.trim() ? parts.html : null
  const text = parts.text?.trim() ? parts.text : null
  if (!html && !text) throw badRequest(MESSAGING_TEXT.bodyMissing)
  if ((html?.length ?? 0) > EMAIL_BODY_MAX || (text?.length ?? 0) > EMAIL_BODY_MAX) {
    throw badRequest(MESSAGING_TEXT.tooLong('The rendered e-mail'))
  }
  return { subject: subject.slice(0, EMAIL_SUBJECT_MAX), html, text }
}

/**
 * The `recipient` of one record (src/shared/message-recipients.ts): a user's name always, their
 * e-mail only when the sender may read the user, since the rendered content stays in the sender's
 * history (the same rule as the address in the send's answer, recipients.ts shownTo); a typed
 * address is the sender's own knowledge.
 */
function templateRecipient(draft: Draft, r: Recipient, grants: readonly Grant[]): TemplateRecipient {
  const typedEmail = r.user === null && draft.channel === 'email' ? r.to : null
  const mayRead = r.user !== null && decide(grants, `users/${r.user}`, 'r').allowed
  return {
    address: r.to,
    user: r.user,
    group: r.group,
    name: r.name ?? null,
    email: typedEmail ?? (mayRead ? (r.email ?? null) : null),
  }
}

/**
 * A push's content, free or rendered: a title, and a link the service worker opens on a click, so only
 * a path on this site or an http(s) address (never javascript: or data:); the whole payload must fit
 * what push services carry.
 */
function pushContent(title: string | null, body: string | null, link: string | null): PushContent {
  const t = (title ?? '').replace(/\s+/g, ' ').trim()
  if (!t) throw badRequest(MESSAGING_TEXT.pushTitleMissing)
  const b = body?.trim() ? body.trim() : null
  const url = link?.trim() ? link.trim() : null
  if (url !== null && !isSitePath(url) && !isHttpUrl(url)) throw badRequest(MESSAGING_TEXT.pushLinkInvalid)
  const content: PushContent = { title: t, body: b, url }
  if (Buffer.byteLength(JSON.stringify(content)) > MAX_PUSH_PAYLOAD_BYTES) {
    throw badRequest(MESSAGING_TEXT.pushTooLarge(MAX_PUSH_PAYLOAD_BYTES))
  }
  return content
}
