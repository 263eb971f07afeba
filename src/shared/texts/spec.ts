// The texts SPEC.md §5, §6 and §8 give word for word (tests/shared/spec-strings.test.ts checks them).
// One definition of each text; src/shared/texts.ts re-exports this file.

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
