// Email, SMS and call messaging.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** POST /api/email, /api/sms, /api/call and the message history (issue 13, docs/operating/messages.md). */
export const MESSAGING_TEXT = {
  toMissing: (max: number): string =>
    `to must be a recipient or a list of at most ${max} recipients (user ids, group ids, addresses or phone numbers)`,
  recipientInvalid: (value: string): string =>
    `'${value}' is not a user, a group, an e-mail address or a phone number in international form (+15551234567)`,
  emailInvalid: (value: string): string => `'${value}' is not a valid e-mail address`,
  phoneInvalid: (value: string): string =>
    `'${value}' is not a phone number in international E.164 form, such as +15551234567`,
  notForChannel: (value: string, channel: string): string =>
    `'${value}' cannot receive ${channel === 'sms' ? 'an SMS' : channel === 'call' ? 'a call' : channel === 'push' ? 'a push' : 'an e-mail'}`,
  noAddress: (user: string, channel: string): string =>
    `User ${user} has no ${channel === 'sms' ? 'phone number' : 'e-mail address'}`,
  noRecipients: 'No recipients: the groups given have no members with an address for this channel',
  tooManyRecipients: (max: number): string => `At most ${max} recipients per request`,
  batchTooLarge: (mb: number): string =>
    `The rendered messages of this request exceed ${mb} MB; send to fewer recipients at once`,
  bccInvalid: 'bcc must be an e-mail address or a list of e-mail addresses',
  subjectMissing: 'An e-mail needs a subject, or a template',
  bodyMissing: 'An e-mail needs html or text, or a template',
  smsTextMissing: 'An SMS needs text, or a template',
  smsTooLong: (max: number): string => `An SMS is at most ${max} characters`,
  tooLong: (field: string): string => `${field} is too long`,
  fieldInvalid: (field: string): string => `${field} must be a string`,
  contentAndTemplate: 'Send either the content or a template, not both',
  templateInvalid: 'template must be the id of a template',
  templateNotFound: (id: string): string => `No template ${id} that you may read`,
  templateWrongKind: (id: string, kind: string, channel: string): string =>
    `Template ${id} is a ${kind} template; ${channel} needs a ${channel} template`,
  dataInvalid: 'data must be a JSON object',
  roomMissing: 'room must be an id of letters, digits, - and _ (or left out for a new room)',
  notFailed: 'Only a failed message can be resent',
  smsNotConfigured: 'No SMS provider is configured (MOMENTUM_SMS_URL, _ACCOUNT_SID, _AUTH_TOKEN, _FROM)',
  smtpNotConfigured: 'No SMTP server is configured (MOMENTUM_SMTP_URL)',
  noSubscription: 'The user has no push subscription; the call rang only in their open consoles, if any',
  callTitle: (caller: string): string => `${caller} is calling you`,
  pushNoSubscription:
    'The user has no push subscription (they have not turned on notifications in a browser)',
  pushTitleMissing: 'A push needs a title, or a template',
  pushLinkInvalid: 'link must be a path on this site (/ui/…) or an http(s) address',
  pushTooLarge: (bytes: number): string => `A push is at most ${bytes} bytes of title, body and link`,
  channelInvalid: 'channel must be email, sms, push or call',
  /** A sender over the per-minute or per-day limit (src/shared/messaging.ts MESSAGE_SENDER_PER_*). */
  senderLimit: (max: number, per: 'minute' | 'day', seconds: number): string =>
    `You may send at most ${max} messages per ${per}; try again in ${seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`}`,
} as const

const channelNoun = (channel: string): string =>
  channel === 'sms' ? 'SMS' : channel === 'push' ? 'push' : channel === 'call' ? 'calling' : 'e-mail'
const addressNoun = (channel: string): string => (channel === 'sms' ? 'phone number' : 'e-mail address')

/**
 * The Messages screen's words (docs/using/messages.md, issue 36): a send is neutral while it waits,
 * and turns to sent or refused on the same status row; what the mirror can tell is said before Send.
 */
export const MESSAGES_CONSOLE_TEXT = {
  queuedOffline:
    'You are offline: the message is queued on this device and goes out once when you are back online.',
  sending: 'Sending: waiting for the server to accept it…',
  sent: 'Sent to the queue: follow it in the history below.',
  /** The server took it, but no provider is set for the channel: it stays queued (GET /api/messages/channels). */
  notConfigured: (channel: string): string =>
    `Queued: ${channelNoun(channel)} is not configured on this server`,
  refused: (message: string): string => `Not sent: the server refused this message. ${message}`,
  refusedRow: 'Not sent: the server refused this message. Edit it and send again, or discard it.',
  refusedEarlier: (count: number): string =>
    count === 1
      ? 'A message sent from this device was refused by the server:'
      : `${count} messages sent from this device were refused by the server:`,
  editAndResend: 'Edit and resend',
  discard: 'Discard',
  waitingOffline: (count: number): string =>
    `${count === 1 ? '1 message waits' : `${count} messages wait`} on this device to be sent when the network is back.`,
  /** Group members the server skips (messages/recipients.ts): the send goes to the others. */
  membersSkipped: (group: string, users: string[], channel: string): string =>
    `${users.length === 1 ? `${users[0]} (in ${group}) has` : `${users.length} members of ${group} have`} no ${addressNoun(channel)} and ${users.length === 1 ? 'is' : 'are'} skipped${users.length > 1 ? `: ${users.join(', ')}` : ''}`,
  previewNotSent: (reason: string): string => `Not sent: ${reason}`,
  fixRecipients: 'Not sent: a recipient cannot receive this message (see the recipients above).',
  /** A template sent without data renders its sample data (messages/content.ts templateDataFor). */
  sampleData: (fields: string[]): string =>
    `This uses the template’s sample data for every recipient${fields.length ? `: ${fields.join(', ')} as in the sample` : ''}. Each recipient’s own name and e-mail replace the sample’s; give Data (JSON) for anything else.`,
} as const
