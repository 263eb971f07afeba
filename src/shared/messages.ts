/**
 * Every user-facing message of SPEC.md §5 and §8, defined once and imported by both halves.
 * tests/shared/spec-strings.test.ts reads SPEC.md and checks each literal here still appears in it,
 * so a drift between the spec and the product fails the build.
 */
import { countOf } from './plural'

/** SPEC §5: validation messages, exact. */
export const VALIDATION = {
  loginMissing: 'Cannot login, missing ID or password',
  registerMissing: 'Cannot register user, missing username or password',
  resetMissing: 'Cannot reset password, missing email or token',
  passwordMissing: 'Cannot update password, missing username or password',
  aiMissingQuestion: 'Cannot ask AI, missing question',
  transactionDeleteNotSupported: 'Not supported',
  pdfMissing: 'PDF creation needs HTML, a template or a URL',
} as const

/** SPEC §8: texts the console shows. */
export const UI_TEXT = {
  sessionExpired: 'Your session has expired. Please log in again.',
  unknownLoginResponse: 'Unknown response from login',
  unableToOpenLogin: 'Unable to open login',
  unknownPaymentResponse: 'Unknown response from payment page',
  unableToOpenCheckout: 'Unable to open checkout page',
  workerUnavailable: 'Unable to load momentum worker, some features may be limited.',
  unsavedTitle: 'Unsaved Changes',
  unsavedText: 'You are about to lose your changes. Are you sure you want to continue?',
  unsavedContinue: 'Continue',
  requestTimedOut: 'Request timed out',
  assistantPlaceholder: 'How can we help?',
} as const

/** SPEC §8 templates. Count wording is kept exactly as the spec writes it. */
export const deleteConfirmText = (count: number, name: string): string =>
  `Do you really want to delete ${count} ${name}? This action cannot be undone.`
export const deleteButtonText = (count: number): string => (count > 1 ? `Delete ${count}` : 'Delete')
export const deletedToast = (count: number): string => `Deleted ${count} item(s)`
export const deletedPartialToast = (done: number, total: number): string => `Deleted ${done}/${total} items`
export const savedToast = (thing: string): string => `${thing} was saved successfully`
export const batchSavedToast = (done: number, total: number, things: string): string =>
  `${done} / ${total} ${things} were saved successfully`
export const assistantHeader = (host: string, model: string): string => `Power by ${host} (${model})`

/** SPEC §6: failed permission checks. */
export const requiresOneOf = (perms: readonly string[]): string => `Requires one of: ${perms.join(', ')}`
export const requiresAll = (perms: readonly string[]): string => `Requires all: ${perms.join(', ')}`

/**
 * "You cannot open Users: it requires the permission users:r." The one wording for a screen the
 * session may not open and a write it may not make (docs/decisions/screens.md).
 */
export const cannotDo = (verb: string, what: string, needed: string): string =>
  `You cannot ${verb} ${what}: it requires the permission ${needed}.`

/** What the console says in place of a write the session may not make (docs/decisions/screens.md). */
export const PERMISSION_UI_TEXT = {
  readOnly: (needed: string, action: string): string => `Read-only: you need ${needed} to ${action}.`,
} as const

/**
 * Messages the spec leaves open ("not shown"); chosen here and listed in docs/decisions.md.
 * Kept beside the spec's own so the server and the console say the same thing.
 */
export const SERVER_TEXT = {
  loginFailed: 'Invalid username or password',
  totpRequired: 'Enter the code from your authenticator app',
  totpInvalid: 'The authenticator code is not valid',
  tooManyAttempts: 'Too many login attempts, try again later',
  notAuthenticated: 'Login required',
  requestTimeout: 'The request body stopped arriving; send it again',
  oldPasswordMissing: 'Cannot update password, missing old password',
  oldPasswordWrong: 'The old password is not correct',
  userExists: 'A user with this username already exists',
  notFound: 'Not found',
  invalidId: 'Invalid id: use 1-128 letters, digits and . _ @ + - (not . or ..)',
  /** The "New …" forms' check of the id the user typed, naming what the id is called there. */
  idRule: (what: string) => `Use 1-128 letters, digits and . _ @ + - for the ${what}`,
  invalidCollection: 'Invalid name: use 1-64 letters, digits, _ and -, starting with a letter or digit',
  invalidJson: 'Request body is not valid JSON',
  bodyTooLarge: 'Request body is too large',
  bodyTooDeep: (max: number): string =>
    `Request body is nested too deeply: at most ${max} levels of objects and arrays`,
  revMismatch: 'The document was changed by someone else',
  alreadyExists: 'A document with this id already exists',
  serverChannelReserved: "The log channel 'server' is reserved",
  invalidEmail: 'Invalid e-mail address',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  cursorExpired: 'The sync cursor is from another epoch; rebuild the mirror',
  badQuery: 'Invalid query',
  resetTokenInvalid: 'This password reset link is not valid or was already used',
  totpNotPending: 'Start the authenticator set-up first',
  totpMethodUnsupported: "Unsupported two-factor method: use 'totp'",
} as const

/**
 * The assistant's texts the spec leaves open (server errors and the popup's own words); chosen in
 * docs/decisions/feedback.md.
 */
export const AI_TEXT = {
  notConfigured: 'The AI assistant is not configured on this server.',
  notConfiguredHint:
    'To connect one, an administrator sets MOMENTUM_AI_URL (an OpenAI-compatible chat endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama), MOMENTUM_AI_MODEL (e.g. llama3.2) and, when the service needs one, MOMENTUM_AI_KEY, then restarts the server. See docs/assistant.md.',
  noHost: 'no AI service',
  noModel: 'no model configured',
  unreachable: 'The AI service cannot be reached',
  timeout: 'The AI service did not answer in time',
  badReply: 'The AI service sent a reply that is not a chat completion',
  upstreamStatus: (status: number, detail: string) =>
    `The AI service answered ${status}${detail ? `: ${detail}` : ''}`,
  title: 'AI Assistant',
  send: 'Send',
  clear: 'Clear conversation',
  close: 'Close',
  typing: 'The assistant is typing',
  empty: 'Ask a question about the console or the data you are looking at.',
  messagesName: 'messages',
} as const

/** Feedback parts of the shell (toasts, confirmations, install prompt, connection state). */
export const FEEDBACK_TEXT = {
  success: 'Success',
  error: 'Error',
  warning: 'Warning',
  close: 'Close',
  cancel: 'Cancel',
  confirmDelete: 'Confirm Delete',
  installTitle: (title: string) => `Install ${title}`,
  installExplain: 'Add this app to your home screen for quick access, full screen and offline use.',
  installAndroid: ['Open the dropdown menu', 'Press Add to Home Screen'],
  installOther: ['Press the Share button', 'Then press Add to Home Screen'],
  online: 'Online',
  offline: 'Offline',
  reconnecting: 'Reconnecting',
} as const

/** Refusals of the sync pull and the websocket (docs/sync-protocol.md); the spec leaves them open. */
export const SYNC_TEXT = {
  badCursor: 'cursor must be a whole number, 0 or more',
  badLimit: (max: number): string => `limit must be a whole number from 1 to ${max}`,
  badEpoch: 'epoch must be the string the server sent',
  badMessage: 'A message must be JSON {event, payload}',
  unknownEvent: (event: string): string => `Unknown event '${event}'`,
  badTopic: (max: number): string => `topic must be a non-empty string of at most ${max} characters`,
  tooManyTopics: (max: number): string => `A socket may subscribe to at most ${max} topics`,
  sessionEnded: 'The session has ended; log in again',
  tooManySockets: (max: number): string =>
    `Too many open connections for this account (at most ${max}); close some tabs and it reconnects`,
  permissionsChanged: 'Your permissions changed; rebuild the mirror',
} as const

/** Refusals of the collection modules, user images and tools (docs/api.md); the spec leaves them open. */
export const COLLECTION_TEXT = {
  settingReadOnly: 'This setting is managed by the server and cannot be changed through the API',
  settingLinkInvalid: (id: string): string =>
    `${id} must be an address starting with https:// or http://, or empty to hide the link`,
  passwordInvalid: 'password must be a non-empty string',
  groupsInvalid: 'groups must be a list of group ids',
  permissionsInvalid: 'permissions must be a list of path:letters strings, e.g. users:r',
  imageMissing: "Send the image as multipart form data in the field 'file'",
  imageNotImage: 'Only image files can be uploaded (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO or SVG)',
  imageNone: 'This user has no image',
  dummySize: (max: number): string => `size must be a whole number of bytes from 0 to ${max}`,
} as const

/** Refusals of the query subset (docs/query.md) used by /api/data and every list; the spec leaves them open. */
export const QUERY_TEXT = {
  notObject: 'Invalid query: a filter must be a JSON object',
  notJson: (param: string): string => `Invalid query: ${param} is not valid JSON`,
  unknownOperator: (op: string): string => `Invalid query: unknown operator ${op}`,
  badField: (field: string): string =>
    `Invalid query: bad field name "${field}" (letters, digits, _ and -, dotted for nested fields)`,
  mixedOperators: (field: string): string =>
    `Invalid query: the value of ${field} mixes $operators and plain fields`,
  badOperand: (op: string, expected: string): string => `Invalid query: ${op} needs ${expected}`,
  tooComplex: 'Invalid query: too many conditions or too deeply nested',
  regexTooLong: (max: number): string => `Invalid query: $regex is longer than ${max} characters`,
  regexInvalid: (reason: string): string =>
    `Invalid query: $regex is not a valid regular expression (${reason})`,
  regexTooSlow: 'Invalid query: $regex took too long on this data; use a simpler or more anchored pattern',
  regexOptions: 'Invalid query: $options may hold only the letters i, m and s, with $regex',
  badSort: 'Invalid query: sort is field names (prefix - for descending) or {"field": 1 or -1}',
  badNumber: (name: string, max: number): string =>
    `Invalid query: ${name} must be a whole number from 0 to ${max}`,
  badOperandName: 'Invalid raw query: operand must be find, count or distinct',
  unknownKey: (operand: string, key: string): string => `Invalid raw query: ${operand} does not take ${key}`,
  rawNeedsCollection:
    'Raw queries need read access to the whole collection; some of its documents are hidden from you',
} as const

/** Refusals of the logs API (docs/query.md#logs); the spec leaves them open except the reserved channel. */
export const LOG_TEXT = {
  channelsReserved: "The log channel 'channels' is reserved",
  badEntry: 'A log entry must be an object {level, log, ctx}',
  badLevel: (levels: readonly string[]): string => `Invalid log level: use one of ${levels.join(', ')}`,
  badLog: (max: number): string => `A log entry needs log as a string of at most ${max} characters`,
  badTime: 'Invalid log time: use an ISO 8601 date or epoch milliseconds',
  badCount: (max: number): string => `Send from 1 to ${max} log entries at a time`,
  badSearch: (max: number): string => `q must be at most ${max} characters`,
} as const

/** Console shell texts the spec leaves open (see docs/decisions/shell.md). */
export const SHELL_TEXT = {
  comingSoon: (screen: string): string => `${screen} — this screen is coming in a later release.`,
  notFound: 'Page not found',
  notFoundText: (path: string): string => `There is no page at ${path}.`,
  serverUnreachable: 'Cannot reach the server. Check your connection and try again.',
  hostedNoOpener: 'This login window was not opened by a page that is waiting for it.',
  hostedBadHost: 'This login link does not say which site to return to.',
  totpPrompt: 'Enter the 6-digit code from your authenticator app.',
  restoring: 'Connecting to the server…',
  offlineNoSession:
    'You are offline, so your session cannot be opened yet. It opens by itself once you are back online.',
} as const

/** Service worker, manifest and push texts the spec leaves open (docs/decisions/pwa.md). */
export const PWA_TEXT = {
  updateAvailable: 'A new version is available',
  reload: 'Reload',
  updateLater: 'Later',
  updateUnsaved: 'Save or undo your changes first; the new version loads when you press Reload.',
  notifications: 'Notifications',
  notificationsOn: 'You will get notifications on this device.',
  notificationsOff: 'Turn on to get notifications on this device.',
  pushUnsupported: 'This browser cannot receive push notifications.',
  pushInsecure: 'Notifications need a secure connection (HTTPS or localhost).',
  pushNoWorker: 'Notifications need the service worker, which is not running (it is off in development).',
  pushDenied: 'Notifications are blocked for this site; allow them in the browser settings.',
  pushNoKey: 'The server has no push key yet.',
  pushFailed: (reason: string): string => `Could not change notifications: ${reason}`,
  subscriptionInvalid:
    'A push subscription needs endpoint (an http or https URL) and keys {p256dh, auth} as the browser gives them',
  endpointMissing: 'Send the subscription (or {endpoint}) to remove',
  subscriptionEndpointRefused:
    'The push endpoint must be an https:// address of a public push service, not a local or private host',
  subscriptionTaken:
    'This push endpoint belongs to another user; subscribe this browser again to get a new one',
  notifyToMissing: 'to must be a user id or a non-empty list of user ids',
  notifyTitleMissing: 'title must be a non-empty string',
  notifyFieldInvalid: (field: string): string => `${field} must be a string`,
  notifyUrlInvalid: 'url must be a path on this site or an http(s) address',
  notifyTooLarge: (max: number): string =>
    `The notification is too large: title, body, url and icon must fit in ${max} bytes`,
} as const

/** The console's sync status, Sync panel, conflict view and banners (docs/sync-ui.md); the spec leaves them open. */
export const SYNC_UI_TEXT = {
  online: 'Synced',
  offline: 'Offline',
  syncing: 'Syncing',
  pendingBadge: (n: number): string => `${n} change${n === 1 ? '' : 's'} not yet sent`,
  /** Online with changes on their way: "Sending · 1841 left" (issue 11), not "Synced · … not yet sent". */
  sendingLeft: (n: number): string => `Sending · ${n.toLocaleString('en')} left`,
  entryOp: { create: 'Create', put: 'Update', patch: 'Update', delete: 'Delete' } as const,
  openPanel: 'Open the Sync panel',
  panelTitle: 'Sync',
  close: 'Close',
  retryNow: 'Retry now',
  pendingTitle: 'Waiting to be sent',
  pendingEmpty: 'Every change has reached the server.',
  inboxTitle: 'Needs your decision',
  inboxEmpty: 'No conflicts.',
  columns: { method: 'Change', path: 'Document', age: 'Age', attempts: 'Attempts', lastError: 'Last error' },
  conflictKind: { conflict: 'Changed on the server too', rejected: 'Refused by the server' },
  review: 'Review',
  conflictTitle: (what: string): string => `Conflict: ${what}`,
  field: 'Field',
  base: 'Before',
  mine: 'Mine',
  theirs: 'Server',
  absent: '(none)',
  deleted: '(deleted)',
  keepMine: 'Keep mine',
  takeTheirs: 'Take theirs',
  merge: 'Merge',
  mergeHint: 'Merge keeps, for each field, the version you pick.',
  changeColumn: 'What changed',
  changeKind: { mine: 'Only you changed it', theirs: 'Only the server changed it', both: 'Both changed it' },
  sameFields: (n: number): string =>
    `${countOf(n, 'other field')} ${n === 1 ? 'is' : 'are'} the same on both sides`,
  resolved: 'The conflict was resolved; the result is queued for the server.',
  storageFull: 'The device storage is full: new changes cannot be saved on this device. Free some space.',
  storageReconnecting: 'Reconnecting to the local database…',
  storageFailed:
    'The local database is unavailable: new changes cannot be saved. Reload the page; queued changes are kept.',
  engineFailed: (reason: string): string => `Offline data is unavailable in this browser: ${reason}`,
  sessionExpiredKept: (n: number): string =>
    `Your session has expired. ${n} change${n === 1 ? ' is' : 's are'} kept on this device and will be sent after you log in again.`,
  logoutTitle: 'Unsent changes',
  logoutText: (n: number): string =>
    `${n} change${n === 1 ? ' has' : 's have'} not reached the server yet. Logging out deletes ${n === 1 ? 'it' : 'them'} from this device. Log out anyway?`,
  logoutConfirm: 'Log out and discard',
  notLoggedIn: 'Log in to change data: local changes belong to a user',
  ageSeconds: (s: number): string => `${s}s`,
  ageMinutes: (m: number): string => `${m} min`,
  ageHours: (h: number): string => `${h} h`,
  ageDays: (d: number): string => `${d} d`,
} as const

/** Database, logs and settings screens: texts the spec leaves open (docs/decisions/screens.md). */
export const SCREENS_TEXT = {
  notSynced: 'Not synced yet',
  notSyncedHint: 'Saved on this device; it is sent to the server when the connection allows.',
  conflict: 'Conflict',
  conflictHint: 'The server refused this change or changed it too: open the conflict to resolve it.',
  rawOffline:
    'Raw queries run on the server and need the network. You are offline: the table above still works on this device’s copy.',
  rawNeedsObject: 'The query must be a JSON object, e.g. {"filter": {"city": "Lyon"}}',
  noCollections: 'No collections yet. Create one, then add documents or import a CSV or JSON file.',
  emptyCollection: 'This collection has no documents yet.',
  noMatches: 'No documents match the search and filter.',
  documentGone: 'This document does not exist (any more) on this device.',
  userGone: 'This user does not exist (any more) on this device.',
  groupGone: 'This group does not exist (any more) on this device.',
  /** The save toast while offline (issue 11): the write is kept here and sent later. */
  savedOffline: 'Saved on this device; it will be sent when you are online',
  importProgress: (done: number, total: number): string => `Importing ${done} / ${total}`,
  exportProgress: (done: number, total: number): string => `Exporting ${done} / ${total}`,
  importNothing: 'The file holds no documents.',
  importBadJson: 'A JSON import must be an array of objects (or one object per line).',
  invalidCollectionName: 'Use 1-64 letters, digits, _ and -, starting with a letter or digit.',
  logsEmpty: 'No log lines match.',
  logsPaused: (n: number): string => `Paused — ${countOf(n, 'new line')} waiting`,
  logsNothingToClear: 'There are no log lines to clear.',
  settingsInvalid: 'Fix the highlighted settings before saving.',
  storageUnknown: 'This browser does not report how much storage the console uses.',
} as const

/** Authentication screens and API tokens (docs/decisions/auth-screens.md); the spec leaves them open. */
export const AUTH_SCREENS_TEXT = {
  tokenNameInvalid: 'name must be a non-empty text of at most 100 characters',
  tokenPermissionsInvalid: 'permissions must be a non-empty list of path:letters strings, e.g. users:r',
  tokenExpiresInvalid: 'expires must be a date in the future, at most one year ahead',
  tokenBeyondOwn: (missing: readonly string[]): string =>
    `A token cannot grant more than you have: ${missing.join(', ')}`,
  tokenImmutable: (fields: readonly string[]): string =>
    `${fields.join(', ')} of a token cannot be changed; create a new token and revoke this one`,
  tokenShownOnce: 'Copy this token now: it is shown only once and cannot be read again.',
  needsNetwork: (what: string): string =>
    `${what} needs a connection to the server. You are offline: nothing was queued; try again when you are back online.`,
  offlineUserCreate:
    'You are offline: the user is created on this device and sent to the server later, without a password. Set one or send a reset e-mail from the user page once you are back online.',
  noAccess: (section: string, needed: string): string => cannotDo('open', section, needed),
  resetSent: (email: string): string => `A password reset e-mail was sent to ${email}`,
  resetQueued: (email: string): string =>
    `A password reset e-mail to ${email} is queued but not sent: the server has no mail server configured (MOMENTUM_SMTP_URL). It goes out once one is set.`,
  revokeTitle: 'Revoke token',
  revokeText: (name: string): string =>
    `Do you really want to revoke the token ${name}? Programs using it can no longer call the API. This action cannot be undone.`,
  revokeButton: 'Revoke',
  revoked: (name: string): string => `The token ${name} was revoked`,
  passwordChanged: 'The password was changed',
  totpEnabled: 'Two-factor authentication is on',
  totpDisabled: 'Two-factor authentication is off',
  imageUploaded: 'The picture was uploaded',
  copied: 'Copied to the clipboard',
} as const

/** Refusals added by the security review (docs/decisions/security.md); the spec leaves them open. */
export const SECURITY_TEXT = {
  apiTokenNotForAccount:
    'API tokens cannot change passwords or two-factor settings; log in to manage the account',
  accountBeyondOwn: (user: string, missing: readonly string[]): string =>
    `You cannot change the credentials of ${user}: they hold permissions you do not have (${missing.join(', ')})`,
  ownProfileFields: (fields: readonly string[]): string =>
    `Without users:u you may change only your own name and e-mail, not: ${fields.join(', ')}`,
  dropBlocked: 'Cannot drop the collection: it holds documents you may not delete',
  dropIfMatch: 'If-Match is not supported when dropping a whole collection',
  resetTooMany: 'Too many password reset requests, try again later',
  lastAdmin: (group: string): string => `The last member of '${group}' cannot be removed or deleted`,
  deleteSelf: 'You cannot delete your own account',
  unsupportedMediaType: 'Unsupported content type: send JSON (application/json)',
  paramTooLong: 'A path segment is too long',
  resetNeedsPublicUrl:
    'Password reset e-mails are off: the server has no public address for the link. An administrator sets public_url in Settings (or MOMENTUM_PUBLIC_URL).',
  reauthRequired: 'Enter your current password to confirm this change',
  reauthWrong: 'The current password is not correct',
} as const

/** The password policy's refusals (src/shared/password-policy.ts), said by the forms and the server alike. */
export const PASSWORD_TEXT = {
  tooShort: (min: number): string => `The password must have at least ${min} characters`,
  tooLong: (max: number): string => `The password must have at most ${max} characters`,
  tooCommon:
    'This password is too common or too easy to guess: use a longer phrase of several unrelated words',
  tooPersonal: 'This password is too close to the username, name or e-mail: choose something unrelated',
} as const

/** Editing a document that changed or went away meanwhile (docs/decisions/edit-base.md); the spec leaves them open. */
export const EDIT_BASE_TEXT = {
  changedElsewhere:
    'Someone else changed this while you were editing. Saving sends only your changes: their other changes are kept, and a field you both changed goes to the Sync panel for your decision.',
  goneWithEdits:
    'This document was deleted elsewhere while you were editing it. Your changes are still here: re-create the document with them, or discard them.',
  recreate: 'Re-create with my changes',
  discard: 'Discard',
} as const

/** POST /api/batch (docs/api.md#batch) and the Database screen's import and export (docs/screens.md). */
export const BATCH_TEXT = {
  badBody: 'Send {"mutations": [{method, path, body, idempotencyKey, ifMatch}, …]}',
  tooMany: (max: number): string => `A batch holds 1 to ${max} mutations`,
  badEntry: 'Each mutation needs a method and a path',
  unsupported: (method: string, path: string): string =>
    `Not supported in a batch: ${method} ${path} (data documents only)`,
  badKey: 'idempotencyKey must be a string of at most 200 characters',
} as const

/** What the browser meets (issue 10: hosted login origins, settings addresses, log flooding). */
export const BROWSER_SECURITY_TEXT = {
  hostedChecking: 'Checking the site that asked for this login…',
  hostedUnknownHost: (origin: string): string =>
    `${origin} is not a site this console logs in for, so no login is sent to it. An administrator can add it to the trusted hosts.`,
  hostedCheckFailed: 'Cannot check the site that asked for this login. Check your connection and reload.',
  settingUrlInvalid: (id: string): string => `${id} must be an http:// or https:// address`,
  settingImageInvalid: (id: string): string =>
    `${id} must be an http:// or https:// address, a path on this server (/…) or a data:image`,
  logsTooMany: 'Too many log lines from this session; try again in a minute',
} as const

/** The Database screen's import preview and export choices (issue 11, docs/screens.md). */
export const TRANSFER_TEXT = {
  previewTitle: 'Import preview',
  delimiter: 'Delimiter',
  delimiterNames: { ',': 'comma (,)', ';': 'semicolon (;)', '\t': 'tab', '|': 'pipe (|)' } as Record<
    string,
    string
  >,
  format: 'Format',
  rowCount: (n: number): string => `${n.toLocaleString('en')} ${n === 1 ? 'row' : 'rows'}`,
  columns: 'Columns',
  firstRows: (n: number): string => `First ${n} ${n === 1 ? 'row' : 'rows'}`,
  replacing: (n: number): string =>
    `${n.toLocaleString('en')} existing ${n === 1 ? 'document' : 'documents'} will be replaced`,
  confirm: (n: number): string => `Import ${n.toLocaleString('en')}`,
  cancel: 'Cancel',
  reading: 'Reading the file…',
  stored: (done: number, total: number): string =>
    `${done.toLocaleString('en')} of ${total.toLocaleString('en')} stored on this device`,
  sent: (done: number, total: number): string =>
    `Sent ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`,
  waitingToSend: (total: number): string =>
    `${total.toLocaleString('en')} stored on this device; they are sent when you are online`,
  needReview: (n: number): string =>
    `${n.toLocaleString('en')} ${n === 1 ? 'document was' : 'documents were'} refused by the server: review ${n === 1 ? 'it' : 'them'} in the Sync panel`,
  exportAll: (n: number): string => `All (${n.toLocaleString('en')})`,
  exportFiltered: (n: number): string => `Filtered view (${n.toLocaleString('en')})`,
  exportSelected: (n: number): string => `Selected (${n.toLocaleString('en')})`,
} as const

/** Storage and Web Server files (SPEC §5 "Storage operations need a path; move needs a source and a destination"). */
export const STORAGE_TEXT = {
  pathMissing: 'Cannot change storage, missing path',
  moveMissing: 'Cannot move, missing source or destination',
  pathInvalid:
    'Invalid path: names separated by /, without empty, . or .. parts, a leading /, control characters or \\',
  outsideRoot: 'This path leads outside the storage root',
  notFound: 'No file or folder at this path',
  exists: 'A file or folder with this name already exists',
  notFolder: 'This path is not a folder',
  isFolder: 'This path is a folder',
  intoItself: 'A folder cannot be moved or copied into itself',
  rootFixed: 'The root folder cannot be moved, copied or deleted',
  postBody: 'Send {directory} to create a folder, {from} to copy, or files as multipart form data',
  patchBody: 'Send {move} with the destination, or {description}',
  uploadMissing: 'Send the files as multipart form data, each under the field name file',
  descriptionInvalid: 'description must be a string of at most 2,000 characters, or null to remove it',
  rangeUnsatisfiable: 'The requested range lies outside the file',
  uploadTooLarge: 'A file is larger than the upload limit',
  quotaExceeded: (quota: string): string =>
    `Not enough room: this would take the files here over their quota of ${quota}. Delete some files or ask an administrator for more space`,
  diskFull: "The server's disk is full, so the file was not saved. Try again once space has been freed",
  tusMetadata:
    'Upload-Metadata must hold root (storage or static), folder and name, each base64-encoded; type and key are optional',
  tusLength: 'Send Upload-Length with the size of the file in bytes',
  tusNotFound: 'No upload at this address: it finished long ago, expired, or belongs to someone else',
  tusKeyReused: 'This upload key was already used for another file',
  tusIncomplete: 'This upload has not received all its bytes',
  tusOffset: 'Upload-Offset does not match the bytes the server holds: ask with HEAD and resume from there',
  shareBody: 'Send {root, path} of a file to share, and optionally expiresIn in seconds',
  shareExpiresIn: 'expiresIn must be a whole number of seconds from 1 to 2,592,000 (30 days)',
  shareNotFile: 'Only a file can be shared, not a folder',
  shareInvalid: 'This download link is not valid',
  shareExpired: 'This download link has expired',
  shareFileGone: 'The shared file has been changed, moved or deleted since the link was made',
} as const

/** The share-link download page (/ui/download, routes/download). */
export const DOWNLOAD_TEXT = {
  title: 'Download a file',
  loading: 'Checking the link…',
  missing: 'This address has no download link in it',
  expiredTitle: 'Link expired',
  invalidTitle: 'Link not valid',
  goneTitle: 'File no longer available',
  failedTitle: 'Could not open the link',
  askAgain: 'Ask the person who sent it for a new link.',
  download: 'Download',
  downloading: 'Downloading…',
  done: 'Downloaded',
  again: 'Download again',
  retry: 'Try again',
  progressLabel: 'Download progress',
  failed: (reason: string) => `The download failed: ${reason}`,
} as const

/** The Storage and Web Server file browser (docs/storage-console.md). */
export const STORAGE_BROWSER_TEXT = {
  empty: 'This folder is empty. Upload files or drop them here.',
  emptyReadOnly: 'This folder is empty.',
  noMatch: 'No files or folders match the search.',
  loading: 'Loading…',
  notFound: 'This folder is not on this device: it was moved or deleted, or you may not read it.',
  logIn: 'Log in to browse these files.',
  dropHere: 'Drop files or folders to upload them here',
  needsNetwork: 'This file is not kept offline: opening it needs the network.',
  noPreview: 'No preview for this kind of file. Download it to open it.',
  htmlAsText: 'Shown as text: pages are never run inside the console.',
  tooLargeForText: 'Only the beginning of this file is shown.',
  folderCreated: (name: string): string => `Folder ${name} was created`,
  renamed: (name: string): string => `Renamed to ${name}`,
  moved: (n: number, folder: string): string => `Moved ${n} ${n === 1 ? 'item' : 'items'} to ${folder}`,
  copied: (n: number, folder: string): string => `Copied ${n} ${n === 1 ? 'item' : 'items'} to ${folder}`,
  uploading: (n: number): string => `Uploading ${n} ${n === 1 ? 'file' : 'files'}`,
  uploadsQueued: (n: number): string =>
    `${n} ${n === 1 ? 'file is' : 'files are'} kept on this device and will be uploaded when you are back online`,
  queued: (what: string): string => `${what} will be sent when you are back online`,
  linkCopied: 'Link copied to the clipboard',
  linkNeedsNetwork: 'Creating a link needs the network.',
  keptOffline: (name: string): string => `${name} is kept on this device`,
  rootName: { storage: 'Storage', static: 'Web Server' },
  nameInvalid: 'A name cannot be empty, contain / or \\, or be . or ..',
  nameTaken: 'A file or folder with this name is already here',
} as const

/** The storage queue: offline and resumable writes of Storage and Web Server files (docs/storage-offline.md). */
export const STORAGE_QUEUE_TEXT = {
  diskFull:
    'This device has no room left to keep these files for upload. Free some disk space and add them again; files queued earlier are kept.',
  queuedOffline: 'will be sent when you are back online',
  uploadsTitle: 'Uploads',
  uploadsEmpty: 'No uploads',
  totalProgress: 'Total progress',
  cancel: 'Cancel',
  retry: 'Retry',
  clearFinished: 'Clear finished',
  notLoggedIn: 'Log in to change files',
  notKept: 'This file is not kept offline and the network is not available',
  status: { waiting: 'Waiting', running: 'Sending', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' },
  opLabel: {
    mkdir: 'New folder',
    move: 'Move',
    copy: 'Copy',
    delete: 'Delete',
    describe: 'Description',
    upload: 'Upload',
  },
  progressLabel: (name: string): string => `Upload progress of ${name}`,
  cancelItem: (name: string): string => `Cancel ${name}`,
  retryItem: (name: string): string => `Retry ${name}`,
} as const

/** Templates (issue 13, docs/templates.md); the spec leaves them open. */
export const TEMPLATE_TEXT = {
  kindInvalid: 'kind must be one of email, sms, push, pdf, layout, partial',
  labelInvalid: (field: string): string => `${field} must be a string of at most 1,000 characters`,
  sampleInvalid: 'sample must be a JSON object',
  partMissing: (kind: string, field: string): string => `A ${kind} template needs ${field}`,
  partNotString: (field: string): string => `${field} must be a string`,
  partTooLong: (field: string, max: number): string =>
    `${field} is longer than ${max.toLocaleString('en')} characters`,
  emailBodyMissing: 'An email template needs html or text',
  pageInvalid:
    'page must be {size, orientation, margin}: size A3, A4, A5, Letter, Legal or Tabloid; orientation portrait or landscape; margin {top, right, bottom, left} as lengths such as 10mm',
  pageOnlyPdf: 'page options belong to pdf templates',
  dataInvalid: 'data must be a JSON object',
  draftMissing: 'Send {template: {kind, …parts}, data} to preview a template that is not saved',
  syntax: (where: string, line: number, column: number, detail: string): string =>
    `Syntax error in ${where} at line ${line}, column ${column}: ${detail}`,
  renderFailed: (where: string, detail: string): string => `Cannot render ${where}: ${detail}`,
  tooSlow: (seconds: number): string =>
    `The template took longer than ${seconds} s to render and was stopped`,
  tooMuchMemory: 'The template produced too much output and was stopped',
  tooLong: 'The template is too long to render',
  missingReference: (name: string): string => `No layout or partial named '${name}' that you may read`,
  busy: 'Too many templates are being rendered; try again in a moment',
} as const

/** The Templates console screen (issue 13, docs/templates-console.md). */
export const TEMPLATES_CONSOLE_TEXT = {
  gone: 'This template does not exist, or this device has not received it yet.',
  previewOffline: 'The preview is rendered by the server and needs the network. Your edits are kept.',
  previewWaiting: 'Rendering…',
  sampleInvalid: 'Sample data must be a JSON object; the preview uses the saved sample until it parses.',
  pdfNeedsSave: 'Save the template first: the PDF is made from the saved version.',
  testSent: (to: string): string => `A test was sent to ${to}`,
  testNoAddress: (what: string): string => `Your user has no ${what}, so there is nowhere to send the test`,
  testNotSent: (detail: string): string => `The test was not sent: ${detail}`,
  noTestForKind: 'Layouts, partials and PDFs have no test message; preview them instead',
  duplicated: (id: string): string => `Duplicated as ${id}`,
  pdfSaveOffline: 'Saving to Storage needs the network: the server renders the PDF.',
  pdfPathMissing: 'Type where the PDF goes in Storage, such as pdf/invoice.pdf',
  pdfSaved: (path: string): string => `The PDF was saved to Storage as ${path}`,
} as const

/** POST /api/pdf (issue 13, docs/pdf.md); the spec gives only VALIDATION.pdfMissing. */
export const PDF_TEXT = {
  oneSource: 'Send only one of html, url or template',
  htmlInvalid: 'html must be a non-empty string',
  templateInvalid: 'template must be the id of a pdf template',
  notPdfTemplate: (id: string, kind: string): string =>
    `Template ${id} is a ${kind} template; only pdf templates render to PDF`,
  urlInvalid: 'url must be an http:// or https:// address',
  urlPrivate: (host: string): string =>
    `${host} is a loopback, private or link-local address; the server does not fetch those`,
  urlUnresolved: (host: string): string => `The host ${host} cannot be resolved`,
  urlFailed: (detail: string): string => `The page could not be loaded: ${detail}`,
  optionsInvalid: 'options must be an object of page options (see docs/pdf.md)',
  timeout: (seconds: number): string => `The PDF took longer than ${seconds} s to render and was stopped`,
  busy: 'Too many PDFs are being rendered; try again in a moment',
  unavailable: 'The PDF renderer (Chromium) is not available on this server',
  saveInvalid:
    'save must be {root, path}: root storage or static, path where the PDF goes in it (such as reports/x.pdf)',
} as const

/** POST /api/email, /api/sms, /api/call and the message history (issue 13, docs/messages.md). */
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
} as const

/** Payments (issue 14): the server's refusals and the checkout's words; docs/decisions/payments.md. */
export const PAYMENT_TEXT = {
  productNameInvalid: 'A product name is text of 1 to 200 characters',
  priceInvalid: 'price must be a whole number of minor units (cents), 0 or more',
  currencyInvalid: 'currency must be a three-letter ISO 4217 code such as EUR',
  stockInvalid: 'stock must be a whole number, 0 or more, or null for unlimited',
  activeInvalid: 'active must be true or false',
  fieldInvalid: (field: string): string => `${field} must be a string`,
  discountKind: 'A discount code has either a percent or an amount, not both',
  percentInvalid: 'percent must be a whole number from 1 to 100',
  amountInvalid: 'amount must be a whole number of minor units (cents), more than 0',
  dateInvalid: (field: string): string => `${field} must be a date such as 2027-12-31`,
  maxUsesInvalid: 'maxUses must be a whole number, 1 or more, or null for unlimited',
  productsInvalid: 'products must be a list of product ids',
  transactionWrite:
    'Transactions are written by the payment routes only (init, the checkout, notify, refund)',
  productUnavailable: (id: string): string => `Product ${id} is not for sale`,
  outOfStock: (id: string): string => `Product ${id} is out of stock`,
  quantityInvalid: (max: number): string => `quantity must be a whole number from 1 to ${max}`,
  codeUnknown: (code: string): string => `The discount code ${code} is not valid`,
  codeUsedUp: (code: string): string => `The discount code ${code} has been used up`,
  codeNotApplicable: (code: string): string => `The discount code ${code} does not apply to this order`,
  customerInvalid: 'customer must be an object with an optional email and name',
  checkoutTokenInvalid: 'This checkout link is not valid',
  checkoutExpired: 'This checkout has expired; start again from the shop',
  checkoutClosed: 'This checkout is already paid',
  cardMissing: 'Enter a card number',
  testCardOnly: 'TEST mode: only test card numbers such as 4242 4242 4242 4242 are accepted',
  cardDeclined: 'Your card was declined',
  insufficientFunds: 'Your card has insufficient funds',
  providerUnavailable: 'The payment provider could not be reached; try again',
  unknownProvider: (id: string): string => `No payment provider ${id} is configured`,
  signatureInvalid: 'Webhook signature verification failed',
  refundAmountInvalid: 'amount must be a whole number of minor units (cents), more than 0',
  refundTooLarge: (left: number): string => `A refund cannot exceed what is left of the payment (${left})`,
  refundFailed: 'The payment provider refused the refund',
  initRateLimited: (seconds: number): string =>
    `Too many checkouts started from here; try again in ${seconds} s`,
  testBanner:
    'TEST MODE: no money moves; use card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline)',
} as const

/** The hosted checkout page's own words (/ui/checkout, docs/checkout.md); its errors to the opener are UI_TEXT's. */
export const CHECKOUT_TEXT = {
  title: 'Checkout',
  loading: 'Loading your order…',
  missing: 'This checkout link is incomplete: it needs a token and the host that opened it',
  badHost: 'This checkout was opened with an invalid host, so its result could not be returned',
  item: 'Item',
  quantity: 'Qty',
  amount: 'Amount',
  subtotal: 'Subtotal',
  discount: (code: string): string => `Discount (${code})`,
  total: 'Total',
  codeLabel: 'Discount code',
  apply: 'Apply',
  removeCode: 'Remove code',
  cardLabel: 'Card number',
  testBadge: 'TEST',
  testCards: (ok: string, declined: string): string => `Test cards: ${ok} pays, ${declined} is declined`,
  pay: (total: string): string => `Pay ${total}`,
  paying: 'Paying…',
  paid: 'Payment complete',
  done: 'You can close this window.',
  close: 'Close',
  alreadyPaid: 'This order is already paid.',
  stripeNoKey:
    'This shop has not finished setting up card payments (the Stripe publishable key is missing); try again later',
  stripeLoadFailed: 'The card form could not be loaded; check your connection and reload this page',
  stripeCardLabel: 'Card',
  stripeSecure: 'Your card details go straight to Stripe; this shop never sees them.',
  processing: 'Your payment is being processed; this page will not take another card for it',
} as const

/** The console's Transactions screen and Test checkout (docs/payments-console.md). */
export const TRANSACTIONS_TEXT = {
  refundNeedsNetwork:
    'A refund needs a connection to the server and is never queued. You are offline: try again when you are back online.',
  refundTitle: 'Refund this payment?',
  refundText: (amount: string, who: string): string =>
    `Refund ${amount} to ${who}? The money goes back through the payment provider; this cannot be undone.`,
  refundButton: (amount: string): string => `Refund ${amount}`,
  refunded: (amount: string): string => `Refunded ${amount}`,
  refundAmountInvalid: (left: string): string => `Enter an amount more than 0 and at most ${left}`,
  nothingToRefund: 'Nothing is left to refund on this payment.',
  testCheckout: 'Test checkout',
  testCheckoutDone: (status: string, total: string): string => `Test checkout ${status}: ${total}`,
  testCheckoutDraft: 'A product needs a price and must be active before it can be sold',
} as const

/** Actions (issue 15, docs/actions.md). */
export const ACTION_TEXT = {
  nameInvalid: 'name must be a non-empty string of at most 200 characters',
  descriptionInvalid: 'description must be a string of at most 2,000 characters',
  enabledInvalid: 'enabled must be true or false',
  codeInvalid: 'code must be a string of at most 100,000 characters',
  timeLimitInvalid: 'timeLimitMs must be a whole number from 10 to 10,000',
  memoryLimitInvalid: 'memoryLimitBytes must be a whole number from 1 MB (1048576) to 64 MB (67108864)',
  runAsInvalid: 'runAs must be a user id',
  runAsForbidden:
    'Only a user who may update users (users:u) can save an action that runs as someone else; set runAs to yourself',
  runAsUnknown: (user: string): string => `runAs: no user '${user}'`,
  triggerInvalid: 'trigger.type must be one of CRON, EVENT, DELETE, GET, PATCH, POST, PUT',
  cronMissing: 'A CRON trigger needs trigger.cron, a cron expression',
  cronInvalid: (detail: string): string => `trigger.cron is not a valid cron expression: ${detail}`,
  timezoneInvalid: 'trigger.timezone must be an IANA time zone such as Europe/Berlin',
  eventCollectionMissing: 'An EVENT trigger needs trigger.collection',
  eventOperationsInvalid: 'trigger.operations must list one or more of create, update, delete',
  disabled: 'This action is disabled',
  wrongMethod: (method: string): string => `This action is triggered by ${method}`,
  notHttp: 'This action is not triggered over HTTP',
  inputInvalid: 'input must be JSON',
  busy: 'Too many actions are running; try again shortly',
  timeout: (ms: number): string => `The action was stopped after ${ms} ms (time limit)`,
  memory: 'The action was stopped: it used more memory than its limit',
  stack: 'The action was stopped: its call stack got too deep',
  resultTooLarge: (max: number): string => `The action's result is larger than ${max} bytes`,
  resultNotJson: 'The action returned a value that is not JSON',
  killed: 'The action was stopped: its worker did not answer in time and was killed',
  tooManyDbCalls: 'The action made too many db calls',
  dbForbidden: (needed: string): string => `db: Requires one of: ${needed}`,
  historyQueryInvalid: (name: string): string => `The run history's ${name} parameter is not valid`,
  runsSettingInvalid:
    'action_runs must be {"keep": runs kept per action (1–100,000), "days": days a run is kept (1–3,650)}',
  eventLoop: (depth: number, cause: string): string =>
    `Stopped: this event was caused by a chain of ${depth} EVENT runs (the last: run ${cause}); an action whose writes trigger actions again is stopped at depth ${depth} so it cannot loop forever`,
  tokenGone:
    'The API token this action was saved with is revoked or expired; save the action again to run it with your rights',
  hostForbidden: (api: string, needed: string): string => `${api}: Requires one of: ${needed}`,
  pdfNeedsSave:
    'pdf: give save: {root, path}; a script cannot hold the PDF itself, so it is saved to Storage',
} as const

/** The Actions console (issue 15, docs/actions-console.md). */
export const ACTIONS_CONSOLE_TEXT = {
  gone: 'This action does not exist, or this device has not received it yet.',
  runOffline: 'Running an action needs the network: the server runs it. Your edits are kept and sent later.',
  runNeedsSave: 'Save your changes first: the server runs the saved action.',
  runNeedsSync: 'Waiting for your saved changes to reach the server…',
  inputInvalid: 'The input must be JSON, e.g. {"name": "Ada"}',
  cronWords: (words: string): string => `Runs ${words.charAt(0).toLowerCase()}${words.slice(1)}`,
  cronBad: (detail: string): string => `Not a valid cron expression: ${detail}`,
  timezoneBad: 'Not an IANA time zone such as Europe/Berlin',
  noNextRun: 'This schedule never runs again',
  operationsMissing: 'Pick at least one operation',
  disabled: 'Disabled: no trigger runs it',
  historyEmpty: 'No runs yet.',
  historyLive: 'Live: runs appear here as they finish',
  historyFallback: 'Live: runs appear here as they finish (not kept on this device offline)',
  errorAt: (kind: string, line: number | undefined): string =>
    line ? `${kind} error at line ${line}` : `${kind} error`,
  dryRun: 'Dry run: writes are checked, not done',
  enabledChanged: (name: string, on: boolean): string => `${name} ${on ? 'enabled' : 'disabled'}`,
} as const

/** The analytics collector and its dashboards' API (issue 16, docs/analytics.md). */
export const ANALYTICS_TEXT = {
  invalidRecord: (detail: string): string => `Invalid analytics record: ${detail}`,
  invalidPatch: (detail: string): string => `Invalid analytics update: ${detail}`,
  visitMissing: 'No such visit, or it is older than the retention period',
  invalidRange: (detail: string): string => `Invalid range: ${detail}`,
  invalidIp: 'Not an IPv4 or IPv6 address',
  invalidSettings: (detail: string): string => `Invalid analytics settings: ${detail}`,
  tooMany: 'Too many analytics requests from this address; try again shortly',
} as const

/**
 * Schemas (issue 17, docs/schemas.md): one message per field of a document that breaks its
 * collection's JSON Schema, the same in the console's forms and in the server's 400. The e-mail
 * format uses SERVER_TEXT.invalidEmail (SPEC §5's check).
 */
export const SCHEMA_TEXT = {
  required: 'Required',
  type: (type: string): string => `Must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`,
  format: (format: string): string => `Must be a valid ${format}`,
  enum: (values: readonly unknown[]): string =>
    `Must be one of: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  const: (value: unknown): string => `Must be ${JSON.stringify(value)}`,
  minimum: (n: number): string => `Must be at least ${n}`,
  maximum: (n: number): string => `Must be at most ${n}`,
  exclusiveMinimum: (n: number): string => `Must be greater than ${n}`,
  exclusiveMaximum: (n: number): string => `Must be less than ${n}`,
  multipleOf: (n: number): string => `Must be a multiple of ${n}`,
  minLength: (n: number): string => `Must be at least ${countOf(n, 'character')}`,
  maxLength: (n: number): string => `Must be at most ${countOf(n, 'character')}`,
  pattern: 'Does not have the expected form',
  minItems: (n: number): string => `Must have at least ${countOf(n, 'item')}`,
  maxItems: (n: number): string => `Must have at most ${countOf(n, 'item')}`,
  uniqueItems: 'Must not repeat an item',
  notAllowed: 'Not a field of this collection',
  choice: 'Does not match any of the allowed forms',
  invalid: 'Is not valid',
  errorsLabel: 'Fields that do not match the schema',
  schemaInvalid: (detail: string): string => `Not a valid JSON Schema: ${detail}`,
  schemaPathInvalid: "A schema is keyed by its collection's path, e.g. data/inspections",
  /** Names each field, so a write refused on outbox replay explains itself in the sync inbox too. */
  documentRejected: (fields: Record<string, string>): string =>
    `The document does not match its collection's schema: ${Object.entries(fields)
      .map(([field, message]) => `${field || 'the document'}: ${message}`)
      .join('; ')}`,
} as const

/** Forms (issue 17, docs/forms.md): the form document's checks, submissions and the console's forms screens. */
export const FORMS_TEXT = {
  titleMissing: 'A form needs a title',
  targetInvalid: 'The target must be a data collection, e.g. data/inspections',
  fillInvalid: "Who may fill must be 'group' or 'link'",
  groupMissing: 'Choose the group whose members may fill the form',
  messageInvalid: 'The message after submitting must be text',
  notifyInvalid: 'The notification needs an e-mail address',
  fieldsInvalid: 'Fields must be a list of fields',
  tooManyFields: (max: number): string => `A form has at most ${max} fields`,
  nameInvalid: (name: string): string =>
    `Field name '${name}' must start with a letter and hold only letters, digits and _ (64 at most)`,
  nameTaken: (name: string): string => `Two fields are named '${name}'`,
  typeInvalid: (name: string): string => `Field '${name}' has an unknown type`,
  labelMissing: (name: string): string => `Field '${name}' needs a label`,
  optionsMissing: (label: string): string => `'${label}' needs at least one option`,
  optionsInvalid: (label: string): string => `'${label}' has an empty or repeated option`,
  rangeInvalid: (label: string): string => `'${label}' has a minimum above its maximum`,
  conditionInvalid: (label: string): string =>
    `'${label}' can only depend on a field above it, with a text, number or yes/no value`,
  notFound: 'No such form',
  notAllowed: 'You may not fill this form',
  loginToFill: 'Log in to fill this form',
  tooMany: 'Too many submissions from this address; please wait a minute and send again',
  answersInvalid: (count: number): string => `Some answers need attention (${countOf(count, 'field')})`,
  queued: 'No network: your answers are kept on this device and sent when the connection returns',
  waiting: (n: number): string => `${countOf(n, 'submission')} waiting to be sent`,
  rejected: (message: string): string => `A queued submission was refused: ${message}`,
  noFields: 'Add a field to start',
  offlineNeverOpened: 'No network, and this form has not been opened on this device before.',
  cachedCopy: 'Offline: this is the copy of the form kept on this device.',
  previewChecked: 'Preview: these answers are valid (nothing was sent)',
  notifySubject: (title: string): string => `New answers to ${title}`,
  notifyIntro: (title: string, form: string): string => `Someone filled the form "${title}" (${form}):`,
} as const

/** Reports (issue 17, docs/reports.md): refusals of a definition, and the screen's words. */
export const REPORT_TEXT = {
  notObject: 'A report must be a JSON object',
  collection: 'collection must be a collection path such as data/inspections',
  filter:
    'filter must be a list of {field, op, value} with op one of eq, ne, gt, gte, lt, lte, contains, exists, missing',
  groupBy: (max: number): string => `groupBy must be a list of at most ${max} field names`,
  aggregates: (max: number): string =>
    `aggregates must list 1 to ${max} of count, or sum, avg, min, max with a field`,
  sort: "sort must be {key, dir} with dir 'asc' or 'desc'",
  limit: 'limit must be a whole number above 0',
  view: 'view must be one of table, bar, line, pie',
  title: 'title must be text',
} as const

/** Video calls (issue 18, docs/video.md): refusals of the signalling and the screen's words. */
export const VIDEO_TEXT = {
  roomInvalid: 'A room name is 1 to 128 letters, digits and . _ @ + -',
  forbidden: 'You are not invited to this room',
  full: (max: number): string => `This room is full (${max} people)`,
  notJoined: 'Join the room first',
  callNotRinging: (status: string): string => `The call is already ${status}`,
  callNotFound: 'No such call',
  noCamera: 'No camera or microphone could be opened. Check the browser permission, or join without them.',
  insecure: 'Camera and microphone need a secure page (https:// or localhost).',
  reconnecting: 'Reconnecting…',
  connectionLost: 'The connection to the server was lost; the call resumes when it returns.',
} as const
