/**
 * What the console and the server agree on about sent messages (issue 13, docs/operating/messages.md): the
 * channels, the shape of a record in the synced `messages` collection, and the recipient checks, so a
 * message composed offline is refused by the console with the server's words.
 */
export const MESSAGE_CHANNELS = ['email', 'sms', 'push', 'call'] as const
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number]

/** The right POST /api/{channel} needs, and so does anything that sends on someone's behalf. */
export const sendPermission = (channel: MessageChannel): string => `messages/${channel}:c`

export const MESSAGE_STATUSES = ['queued', 'sent', 'failed'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

/** The synced collection of message records, one document per recipient (docs/decisions/messages.md). */
export const MESSAGES_COLLECTION = 'messages'
/**
 * The synced collection the console sends through (docs/using/messages.md): creating a document
 * queues its recipients' `messages`, so a message composed offline travels in the sync outbox and is
 * sent once on reconnect (its client-chosen id makes a replay idempotent).
 */
export const MESSAGE_REQUESTS_COLLECTION = 'message-requests'

/** Recipients one request may reach after groups are expanded; bigger audiences belong in batches. */
export const MESSAGE_RECIPIENTS_MAX = 500
/**
 * Messages (records, one per recipient) one sender may queue per minute: two requests to the largest
 * audience (MESSAGE_RECIPIENTS_MAX), far more than a person sends by hand, so only a runaway script
 * or a stolen session meets it, and it meets it within a minute (server/messages/rate.ts).
 */
export const MESSAGE_SENDER_PER_MINUTE = 2 * MESSAGE_RECIPIENTS_MAX
export const MESSAGE_SENDER_MINUTE_MS = 60_000
/**
 * And per day: twenty sends to the largest audience. Past that it is a mass mailing, which belongs to
 * a campaign tool, and it caps what one person can cost in SMS or in the mail domain's reputation.
 */
export const MESSAGE_SENDER_PER_DAY = 20 * MESSAGE_RECIPIENTS_MAX
export const MESSAGE_SENDER_DAY_MS = 24 * 60 * 60_000
/** Twilio refuses a Body longer than 1,600 characters. */
export const SMS_TEXT_MAX = 1600
export const EMAIL_SUBJECT_MAX = 998
/** Rendered HTML or text of one mail; records are synced, so they stay modest. */
export const EMAIL_BODY_MAX = 512 * 1024
/** Rendered content of all the records of one request, so a big group times a big mail is refused. */
export const MESSAGE_BATCH_CONTENT_MAX = 16 * 1024 * 1024

/**
 * E.164: a plus, a country code that does not start with 0, at most 15 digits in all; at least 7,
 * since no country's subscriber numbers are shorter and "+12" is a typo, not a phone.
 */
const E164 = /^\+[1-9]\d{6,14}$/

export function isE164(value: unknown): value is string {
  return typeof value === 'string' && E164.test(value)
}

/** The content a record holds, already rendered for its recipient. */
export interface EmailContent {
  subject: string
  text: string | null
  html: string | null
}
export interface SmsContent {
  text: string
}
/** A Web Push notification; `url` is a site path or an http(s) address (checked when composed). */
export interface PushContent {
  title: string
  body: string | null
  url: string | null
}
export interface CallContent {
  room: string
  title: string
  body: string | null
  url: string
  from: string | null
  /** The caller's display name (their id when they have none): what the ring shows. */
  fromName?: string | null
  /** The room was made for this call (none was named): it is its sender's (server/video/access.ts). */
  roomCreated?: boolean
}

/** One record of `messages`: one recipient of one request (`batch`). */
export interface MessageRecord {
  _id: string
  channel: MessageChannel
  /** The request it came from; every recipient of one POST shares it. */
  batch: string
  /** The address used: an e-mail address, an E.164 number, or a user id (push, call). */
  to: string
  /** The user it was sent to, when the recipient was a user or came from a group. */
  user: string | null
  /** The group the recipient came from, when it did. */
  group: string | null
  bcc: string[]
  template: string | null
  content: EmailContent | SmsContent | PushContent | CallContent
  status: MessageStatus
  attempts: number
  /** When the worker may next claim it (a retry's time, or the end of a claim's lease). */
  nextAttempt: string | null
  lastError: string | null
  sentAt: string | null
  /** The provider's id for it (SMTP message id, Twilio SID). */
  providerId: string | null
  sentBy: string | null
  /** How many times it was put back in the queue after failing (POST /api/messages/{id}/resend). */
  resent: number
}

/** The websocket event a call invitation rings with, sent to each of the recipient's open consoles. */
export const CALL_EVENT = 'call'

/** Its payload: the call's content (whether the room was made for it is the server's business) and its record. */
export interface CallInvitation extends Omit<CallContent, 'roomCreated'> {
  message: string
}

/**
 * GET /api/messages/channels (any session): which channels have a provider on this server. A record
 * of a channel without one stays `queued` until one is configured, and the console says so
 * ("Queued: e-mail is not configured on this server") instead of a success.
 */
export const MESSAGE_CHANNELS_PATH = '/api/messages/channels'
export interface MessageChannelsInfo {
  configured: Record<MessageChannel, boolean>
}
