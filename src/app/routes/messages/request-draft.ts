/**
 * A refused `message-requests` document back in the composer ("Edit and resend", issue 36): the
 * request's fields as the draft that made it (the reverse of compose.ts requestBody), so a send
 * refused while the screen was closed can be fixed and sent again without typing it afresh.
 */
import type { SyncDoc } from '../../../db/types'
import { COMPOSER_TABS, type ComposerTab, type Draft, EMPTY_DRAFT, type Pick } from './compose'

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/** Names a stored `to` entry as the picker would (a user's or group's name from the mirror). */
function pickOf(entry: string, users: SyncDoc[], groups: SyncDoc[]): Pick {
  const named = (d: SyncDoc | undefined) => (d && typeof d.name === 'string' && d.name ? d.name : null)
  if (entry.startsWith('user:')) {
    const id = entry.slice(5)
    return { entry, label: named(users.find((u) => u._id === id)) ?? id, kind: 'user' }
  }
  if (entry.startsWith('group:')) {
    const id = entry.slice(6)
    return { entry, label: `${named(groups.find((g) => g._id === id)) ?? id} (group)`, kind: 'group' }
  }
  return { entry, label: entry, kind: 'address' }
}

export function draftFromRequest(doc: SyncDoc, users: SyncDoc[], groups: SyncDoc[]): Draft {
  const tab = (COMPOSER_TABS as readonly string[]).includes(String(doc.channel))
    ? (doc.channel as ComposerTab)
    : 'email'
  const to = (Array.isArray(doc.to) ? doc.to : [doc.to]).filter((e): e is string => typeof e === 'string')
  const hasData = doc.data && typeof doc.data === 'object'
  return {
    ...EMPTY_DRAFT,
    tab,
    to: to.map((e) => pickOf(e, users, groups)),
    bcc: Array.isArray(doc.bcc) ? doc.bcc.join(', ') : '',
    template: text(doc.template),
    data: hasData ? JSON.stringify(doc.data, null, 2) : '',
    subject: text(doc.subject),
    // Push and call keep their text in `body` (POST /api/push, /api/call).
    text: tab === 'push' || tab === 'call' ? text(doc.body) : text(doc.text),
    html: text(doc.html),
    room: text(doc.room),
    title: text(doc.title),
    link: text(doc.link),
  }
}
