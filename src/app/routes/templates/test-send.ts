/**
 * "Send a test to me": the draft as it is on screen (saved or not) is rendered by the server with the
 * sample data and sent to the logged-in user over the template's channel (docs/operating/messages.md): e-mail
 * to their address, SMS to their phone, push to their subscriptions. Online only, like every send.
 * A mail or SMS on a server without that provider is only queued, and the answer says so ("Queued:
 * e-mail is not configured on this server", issue 36) rather than a success.
 */

import type { TemplateDoc } from '../../../shared/templates'
import { MESSAGES_CONSOLE_TEXT, TEMPLATES_CONSOLE_TEXT } from '../../../shared/texts'
import { fetchChannels, notConfigured } from '../../api/channels'
import { api } from '../../api/client'
import type { CurrentUser } from '../../session/session'
import { renderDraft } from './template-data'

/** What became of a test: `sent` false when it only waits in the queue (no provider for the channel). */
export interface TestOutcome {
  text: string
  sent: boolean
}

async function queuedOrSent(kind: 'email' | 'sms', sentText: string): Promise<TestOutcome> {
  if (notConfigured(await fetchChannels(), kind))
    return { text: MESSAGES_CONSOLE_TEXT.notConfigured(kind), sent: false }
  return { text: sentText, sent: true }
}

/** The permission each kind's test needs, or null when the kind has no test message. */
export function testPermission(kind: string): string | null {
  if (kind === 'email') return 'messages/email:c'
  if (kind === 'sms') return 'messages/sms:c'
  if (kind === 'push') return 'notifications:c'
  return null
}

/** Sends the test; resolves to what became of it, rejects with the reason as an Error. */
export async function sendTestToMe(
  draft: TemplateDoc,
  data: Record<string, unknown> | undefined,
  me: CurrentUser,
): Promise<TestOutcome> {
  const kind = draft.kind
  if (kind === 'email' && !me.email) throw new Error(TEMPLATES_CONSOLE_TEXT.testNoAddress('e-mail address'))
  if (kind === 'sms' && typeof me.phone !== 'string')
    throw new Error(TEMPLATES_CONSOLE_TEXT.testNoAddress('phone number'))
  const rendered = await renderDraft(draft, data)
  if (!rendered.ok) throw new Error(rendered.message)
  const parts = rendered.result.parts
  const to = `user:${me._id}`
  if (kind === 'email') {
    await api.request('/api/email', {
      method: 'POST',
      body: { to, subject: parts.subject ?? '', ...pick(parts, ['html', 'text']) },
    })
    return queuedOrSent('email', TEMPLATES_CONSOLE_TEXT.testSent(me.email as string))
  }
  if (kind === 'sms') {
    await api.request('/api/sms', { method: 'POST', body: { to, text: parts.text ?? '' } })
    return queuedOrSent('sms', TEMPLATES_CONSOLE_TEXT.testSent(me.phone as string))
  }
  if (kind === 'push') {
    const res = await api.request<{ results?: Array<{ status?: string }> }>('/api/notifications', {
      method: 'POST',
      body: {
        to: [me._id],
        title: parts.title ?? '',
        body: parts.body ?? '',
        ...(parts.link ? { url: parts.link } : {}),
      },
    })
    const status = res.results?.[0]?.status
    if (status && status !== 'sent' && status !== 'partial') throw new Error(status.replace(/_/g, ' '))
    return { text: TEMPLATES_CONSOLE_TEXT.testSent('your devices'), sent: true }
  }
  throw new Error(TEMPLATES_CONSOLE_TEXT.noTestForKind)
}

function pick(parts: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => parts[k]?.trim()).map((k) => [k, parts[k] as string]))
}
