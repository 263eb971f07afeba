/**
 * Every user-facing message of SPEC.md §5 and §8, defined once and imported by both halves.
 * tests/shared/spec-strings.test.ts reads SPEC.md and checks each literal here still appears in it,
 * so a drift between the spec and the product fails the build.
 */

/** SPEC §5: validation messages, exact. */
export const VALIDATION = {
  loginMissing: 'Cannot login, missing ID or password',
  registerMissing: 'Cannot register user, missing username or password',
  resetMissing: 'Cannot reset password, missing email or token',
  passwordMissing: 'Cannot update password, missing username or password',
  aiMissingQuestion: 'Cannot ask AI, missing question',
  transactionDeleteNotSupported: 'Not supported',
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
 * Messages the spec leaves open ("not shown"); chosen here and listed in docs/decisions.md.
 * Kept beside the spec's own so the server and the console say the same thing.
 */
export const SERVER_TEXT = {
  loginFailed: 'Invalid username or password',
  totpRequired: 'Enter the code from your authenticator app',
  totpInvalid: 'The authenticator code is not valid',
  tooManyAttempts: 'Too many login attempts, try again later',
  notAuthenticated: 'Login required',
  oldPasswordMissing: 'Cannot update password, missing old password',
  oldPasswordWrong: 'The old password is not correct',
  userExists: 'A user with this username already exists',
  notFound: 'Not found',
  invalidId: 'Invalid id: use 1-128 letters, digits and . _ @ + - (not . or ..)',
  invalidCollection: 'Invalid name: use 1-64 letters, digits, _ and -, starting with a letter or digit',
  invalidJson: 'Request body is not valid JSON',
  bodyTooLarge: 'Request body is too large',
  revMismatch: 'The document was changed by someone else',
  alreadyExists: 'A document with this id already exists',
  serverChannelReserved: "The log channel 'server' is reserved",
  invalidEmail: 'Invalid e-mail address',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  cursorExpired: 'The sync cursor is from another epoch; rebuild the mirror',
  badQuery: 'Invalid query',
} as const

/**
 * The assistant's texts the spec leaves open (server errors and the popup's own words); chosen in
 * docs/decisions/feedback.md.
 */
export const AI_TEXT = {
  notConfigured: 'The AI assistant is not configured on this server.',
  notConfiguredHint: 'Ask an administrator to set MOMENTUM_AI_URL and MOMENTUM_AI_MODEL.',
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
