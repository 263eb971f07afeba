/**
 * Who a message goes to. `to` is one entry or a list of them, each:
 *   an e-mail address (has an @)      email only; the SPEC §5 format check (src/shared/email.ts)
 *   a phone number (starts with +)     sms only; E.164
 *   `user:{id}` or `group:{id}`        explicit
 *   a bare id                          the user with that id, else the group with that id
 * A user is reached at their `email` (email), `phone` (sms) or their own id (push: their push
 * subscriptions; call: push subscriptions and open consoles): src/shared/message-recipients.ts, which
 * the console's check before sending uses too. A group stands for its members (users whose `groups`
 * holds it). One delivery per distinct address, so a member named twice, or directly and through a group, gets one message.
 *
 * A user named directly without the address the channel needs is a 400: the sender can fix it. A
 * group member without one is skipped and listed in the answer: one member without a phone number
 * must not stop an SMS to the other forty.
 */
import type { FastifyRequest } from 'fastify'
import { isValidEmail } from '../../shared/email'
import { isValidId } from '../../shared/ids'
import { normalPhone, recipientName, userAddress } from '../../shared/message-recipients'
import { isE164, MESSAGE_RECIPIENTS_MAX, type MessageChannel } from '../../shared/messaging'
import { MESSAGING_TEXT } from '../../shared/texts'
import { allowed } from '../auth/guard'
import { badRequest } from '../errors'
import type { Doc, DocumentStore } from '../store/types'

export interface Recipient {
  to: string
  user: string | null
  group: string | null
  /** The user's name and e-mail, for the template's `recipient` (compose.ts); never stored. */
  name?: string | null
  email?: string | null
}

export interface Resolved {
  recipients: Recipient[]
  /** Group members left out, with why. */
  skipped: Array<{ user: string; group: string; reason: string }>
}

/**
 * The address of a sent record as its sender may see it (the send answer, an action's
 * messages.send): a user's e-mail address or phone number only when the sender may read that user
 * (`users/{id}:r`), else null beside the user id, so sending to an id does not reveal the address
 * behind it. An address the sender typed, and push and call records (addressed to the user id), are
 * shown as they are. Which ids exist is not hidden: see docs/operating/messages.md "What a sender learns".
 */
export function shownTo(req: FastifyRequest, record: Doc): unknown {
  if (typeof record.user !== 'string' || record.channel === 'push' || record.channel === 'call')
    return record.to
  return allowed(req, `users/${record.user}:r`) ? record.to : null
}

/** `to` (or `bcc`) as a list of strings: one string or a non-empty array of them, else 400. */
export function entries(value: unknown, message: string, max = MESSAGE_RECIPIENTS_MAX): string[] {
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.length === 0) throw badRequest(message)
  if (list.length > max) throw badRequest(MESSAGING_TEXT.tooManyRecipients(max))
  if (!list.every((v): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= 320)) {
    throw badRequest(message)
  }
  return list.map((v) => v.trim())
}

/**
 * A recipient's refusal names `to`, so the console shows it next to its recipients field (a queued
 * send refused on replay, src/app/routes/messages).
 */
const refused = (message: string) => badRequest(message, { field: 'to' })

/** A user as a recipient reached at `to`: the user's own fields ride along for the template. */
const userRecipient = (user: Doc, to: string, group: string | null): Recipient => ({
  to,
  user: user._id,
  group,
  name: recipientName(user),
  email: isValidEmail(user.email) ? user.email : null,
})

export async function resolveRecipients(
  store: DocumentStore,
  channel: MessageChannel,
  to: unknown,
): Promise<Resolved> {
  const list = entries(to, MESSAGING_TEXT.toMissing(MESSAGE_RECIPIENTS_MAX))
  const byAddress = new Map<string, Recipient>()
  const skipped: Resolved['skipped'] = []
  const add = (r: Recipient) => {
    if (!byAddress.has(r.to)) byAddress.set(r.to, r)
  }

  for (const entry of list) {
    if (entry.includes('@') && !entry.startsWith('user:') && !entry.startsWith('group:')) {
      if (!isValidEmail(entry)) throw refused(MESSAGING_TEXT.emailInvalid(entry))
      if (channel !== 'email') throw refused(MESSAGING_TEXT.notForChannel(entry, channel))
      add({ to: entry, user: null, group: null })
      continue
    }
    if (entry.startsWith('+')) {
      const phone = normalPhone(entry)
      if (!isE164(phone)) throw refused(MESSAGING_TEXT.phoneInvalid(entry))
      if (channel !== 'sms') throw refused(MESSAGING_TEXT.notForChannel(entry, channel))
      add({ to: phone, user: null, group: null })
      continue
    }
    const [kind, id] = entry.startsWith('user:')
      ? (['user', entry.slice(5)] as const)
      : entry.startsWith('group:')
        ? (['group', entry.slice(6)] as const)
        : (['any', entry] as const)
    if (!isValidId(id)) throw refused(MESSAGING_TEXT.recipientInvalid(entry))
    const user = kind === 'group' ? null : await store.get('users', id)
    if (user) {
      const address = userAddress(user, channel)
      if (!address) throw refused(MESSAGING_TEXT.noAddress(id, channel))
      add(userRecipient(user, address, null))
      continue
    }
    const group = kind === 'user' ? null : await store.get('groups', id)
    if (!group) throw refused(MESSAGING_TEXT.recipientInvalid(entry))
    const { items } = await store.list('users', {
      filter: { groups: id },
      sort: [['_id', 1]],
      limit: MESSAGE_RECIPIENTS_MAX + 1,
    })
    for (const member of items) {
      const address = userAddress(member, channel)
      if (address) add(userRecipient(member, address, id))
      else
        skipped.push({ user: member._id, group: id, reason: MESSAGING_TEXT.noAddress(member._id, channel) })
    }
    if (byAddress.size > MESSAGE_RECIPIENTS_MAX) {
      throw refused(MESSAGING_TEXT.tooManyRecipients(MESSAGE_RECIPIENTS_MAX))
    }
  }
  if (byAddress.size === 0) throw refused(MESSAGING_TEXT.noRecipients)
  return { recipients: [...byAddress.values()], skipped }
}
