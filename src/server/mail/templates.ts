/**
 * Texts of the mails the server sends. They are not shown by the console, so they live with the mail
 * code rather than in src/shared/texts.ts; plain text first (every client shows it), HTML beside it.
 */
import type { Mail } from './outbox'

export function passwordResetMail(to: string, user: string, title: string, link: string): Mail {
  const text = [
    `Hello ${user},`,
    '',
    `Someone asked to reset the password of your ${title} account. To choose a new password, open:`,
    '',
    link,
    '',
    'The link works once, for one hour. If you did not ask for this, ignore this mail: your password',
    'stays as it is.',
  ].join('\n')
  const html = `<p>Hello ${escapeHtml(user)},</p>
<p>Someone asked to reset the password of your ${escapeHtml(title)} account.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once, for one hour. If you did not ask for this, ignore this mail: your password stays
as it is.</p>`
  return { to, subject: `Reset your ${title} password`, text, html }
}

/** Text for HTML content or a quoted attribute (also used by the reports' PDF). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
