/**
 * The check before sending (issue 36): who a draft reaches, as far as the local mirror knows, with the
 * server's own rule for a user's address (src/shared/message-recipients.ts) and its words. A user
 * named directly without the channel's address is a refusal the server would answer with a 400, so
 * Send is held back; group members without one are skipped by the server, so they are a warning. The
 * server still decides: the mirror may not hold every member of a group, or may be behind.
 */
import type { SyncDoc } from '../../../db/types'
import { recipientName, type TemplateRecipient, userAddress } from '../../../shared/message-recipients'
import { MESSAGES_CONSOLE_TEXT, MESSAGING_TEXT } from '../../../shared/texts'
import type { ComposerTab, Pick } from './compose'

export interface RecipientCheck {
  /** The recipients a send reaches, one per address, with what a template is rendered with. */
  targets: TemplateRecipient[]
  /** Refusals the server would answer (named users without an address): Send waits for a fix. */
  errors: string[]
  /** Group members the server would skip, in its words. */
  warnings: string[]
}

const emailOf = (u: SyncDoc): string | null => (typeof u.email === 'string' && u.email ? u.email : null)

export function checkRecipients(picks: Pick[], users: SyncDoc[], tab: ComposerTab): RecipientCheck {
  const byAddress = new Map<string, TemplateRecipient>()
  const errors: string[] = []
  const warnings: string[] = []
  const add = (t: TemplateRecipient) => {
    if (!byAddress.has(t.address)) byAddress.set(t.address, t)
  }
  for (const p of picks) {
    if (p.kind === 'address') {
      add({
        address: p.entry,
        user: null,
        group: null,
        name: null,
        email: tab === 'email' ? p.entry : null,
      })
    } else if (p.kind === 'user') {
      const id = p.entry.slice('user:'.length)
      const user = users.find((u) => u._id === id)
      // Not on this device (or not readable): the server knows, and says so if it must.
      if (!user) continue
      const address = userAddress(user, tab)
      if (!address) errors.push(MESSAGING_TEXT.noAddress(id, tab))
      else add({ address, user: id, group: null, name: recipientName(user), email: emailOf(user) })
    } else {
      const id = p.entry.slice('group:'.length)
      const missing: string[] = []
      for (const u of users) {
        if (!Array.isArray(u.groups) || !u.groups.includes(id)) continue
        const address = userAddress(u, tab)
        if (address) add({ address, user: u._id, group: id, name: recipientName(u), email: emailOf(u) })
        else missing.push(u._id)
      }
      if (missing.length) warnings.push(MESSAGES_CONSOLE_TEXT.membersSkipped(id, missing, tab))
    }
  }
  return { targets: [...byAddress.values()], errors, warnings }
}
