/**
 * What a message knows about a user it goes to, one definition for the server (messages/recipients.ts,
 * messages/content.ts) and the console (the composer's check before sending and its preview), so the
 * console warns about exactly the recipients the server would refuse or skip, and previews a template
 * with exactly the data the send renders it with (issue 36).
 */
import { isValidEmail } from './email'
import { isE164, type MessageChannel } from './messaging'

/** The fields of a user document the rules below read. */
export interface RecipientUser {
  _id: string
  name?: unknown
  email?: unknown
  phone?: unknown
}

/** A phone number as typed or stored, without the spaces, dots, dashes and brackets people add. */
export const normalPhone = (value: string): string => value.replace(/[\s().-]/g, '')

/**
 * The address of a user on a channel, or null when they have none: their `email` (email), their
 * `phone` in E.164 form (sms), their own id (push and call reach their subscriptions and consoles).
 */
export function userAddress(user: RecipientUser, channel: MessageChannel): string | null {
  if (channel === 'call' || channel === 'push') return user._id
  if (channel === 'email') return isValidEmail(user.email) ? user.email : null
  const phone = typeof user.phone === 'string' ? normalPhone(user.phone) : ''
  return isE164(phone) ? phone : null
}

/** A user's name as a message greets them: their display name, or their id when they have none. */
export function recipientName(user: RecipientUser): string {
  return typeof user.name === 'string' && user.name.trim() ? user.name.trim() : user._id
}

/**
 * The `recipient` a template is rendered with, per recipient. `name` is a public profile field (call
 * invitations show it too); `email` is there only when the sender may see it: the address a typed
 * e-mail went to, or the e-mail of a user the sender may read (`users/{id}:r`), because the rendered
 * content is kept in the sender's history.
 */
export interface TemplateRecipient {
  address: string
  user: string | null
  group: string | null
  name: string | null
  email: string | null
}

/** The recipient fields that take the place of the same-named top-level data fields (`{{ name }}`). */
export const OWN_FIELDS = ['name', 'email'] as const

/**
 * The data a template is rendered with for one recipient. The recipient's own name and e-mail fill
 * `name` and `email` under data the sender typed (their choice for everyone), and in place of the
 * template's sample data (`fromSample`: the sender gave none), whose `name` and `email` never stand
 * in for a real recipient ("Hello Ada" to everyone): one the recipient lacks, or the sender may not
 * see, is left empty. `recipient` is always the recipient's.
 */
export function templateDataFor(
  data: Record<string, unknown>,
  fromSample: boolean,
  recipient: TemplateRecipient,
): Record<string, unknown> {
  const own: Record<string, unknown> = {}
  for (const f of OWN_FIELDS) if (recipient[f] !== null) own[f] = recipient[f]
  if (!fromSample) return { ...own, ...data, recipient }
  const rest = Object.fromEntries(
    Object.entries(data).filter(([k]) => !(OWN_FIELDS as readonly string[]).includes(k)),
  )
  return { ...rest, ...own, recipient }
}

/** The sample's fields that every recipient gets as they are (all but their own name and e-mail). */
export function sampleOnlyFields(sample: unknown): string[] {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return []
  return Object.keys(sample).filter(
    (k) => !(OWN_FIELDS as readonly string[]).includes(k) && k !== 'recipient',
  )
}
