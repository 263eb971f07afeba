/**
 * The providers the queue hands records to, one per channel: SMTP through nodemailer (email), an
 * SmsProvider (Twilio's wire format, twilio.ts), and Web Push (push messages and call invitations,
 * push/send.ts). A
 * provider resolves with its id for the message or throws ProviderError; `permanent` errors (an
 * address the SMTP server refuses for good, a 4xx from the SMS API) fail the record at once, the
 * others are retried with backoff (queue.ts).
 */
import nodemailer from 'nodemailer'
import type {
  CallContent,
  EmailContent,
  MessageChannel,
  PushContent,
  SmsContent,
} from '../../shared/messaging'
import { MESSAGING_TEXT } from '../../shared/texts'
import type { PushSender } from '../push/send'
import type { Doc } from '../store/types'

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message)
  }
}

export interface Sent {
  providerId: string | null
}

export interface SmsProvider {
  send(to: string, text: string): Promise<Sent>
}

/** Sends one record of its channel. */
export type Provider = (record: Doc) => Promise<Sent>

export interface Providers {
  /** Channels with a configured provider; records of the others stay queued until one is configured. */
  readonly channels: MessageChannel[]
  send(record: Doc): Promise<Sent>
  close(): void
}

export function createProviders(options: {
  smtpUrl?: string
  from: string
  sms?: SmsProvider
  push?: () => PushSender | undefined
}): Providers {
  const transport = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        // Pooled: the queue sends one mail after another, and a connection (greeting, EHLO) per mail
        // took about 100 ms of the 110 each cost, pooled about 8 (bench/suites/messages.ts).
        pool: true,
        maxConnections: 2,
        // As the reset-mail outbox (mail/outbox.ts): a server that does not answer in seconds is down.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : null
  const byChannel: Partial<Record<MessageChannel, Provider>> = {}

  if (transport) {
    byChannel.email = async (record) => {
      const content = record.content as EmailContent
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: String(record.to),
          bcc: Array.isArray(record.bcc) && record.bcc.length ? (record.bcc as string[]) : undefined,
          subject: content.subject,
          text: content.text ?? undefined,
          html: content.html ?? undefined,
        })
        return { providerId: info.messageId ?? null }
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode
        // SMTP 5xx is a permanent refusal (no such mailbox); 4xx and a dead connection are worth a retry.
        throw new ProviderError((error as Error).message, typeof code === 'number' && code >= 500)
      }
    }
  }
  if (options.sms) {
    const sms = options.sms
    byChannel.sms = (record) => sms.send(String(record.to), (record.content as SmsContent).text)
  }
  if (options.push) {
    const push = options.push
    byChannel.call = async (record) => {
      const sender = push()
      if (!sender) throw new ProviderError('Web Push is not set up on this server', false)
      const content = record.content as CallContent
      const result = await sender.sendToUser(String(record.to), {
        type: 'notification',
        title: content.title,
        ...(content.body ? { body: content.body } : {}),
        url: content.url,
        // The call record's id (= this record's): the notification's Decline button answers it.
        call: record._id,
      })
      if (result.status === 'sent' || result.status === 'partial') return { providerId: null }
      if (result.status === 'no_subscription') throw new ProviderError(MESSAGING_TEXT.noSubscription, true)
      throw new ProviderError(result.errors?.join('; ') || 'push failed', false)
    }
    byChannel.push = async (record) => {
      const sender = push()
      if (!sender) throw new ProviderError('Web Push is not set up on this server', false)
      const content = record.content as PushContent
      const result = await sender.sendToUser(String(record.to), {
        type: 'notification',
        title: content.title,
        ...(content.body ? { body: content.body } : {}),
        ...(content.url ? { url: content.url } : {}),
      })
      // 'partial': some of the user's browsers took it; a retry would notify those again.
      if (result.status === 'sent' || result.status === 'partial') return { providerId: null }
      // Nothing to retry until the user subscribes; they may never do so.
      if (result.status === 'no_subscription')
        throw new ProviderError(MESSAGING_TEXT.pushNoSubscription, true)
      throw new ProviderError(result.errors?.join('; ') || 'push failed', false)
    }
  }

  return {
    channels: Object.keys(byChannel) as MessageChannel[],
    send(record) {
      const provider = byChannel[record.channel as MessageChannel]
      if (!provider)
        return Promise.reject(new ProviderError(`No provider for ${String(record.channel)}`, false))
      return provider(record)
    },
    close() {
      transport?.close()
    },
  }
}
