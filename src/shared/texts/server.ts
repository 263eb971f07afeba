// The server's refusals the spec leaves open, shared with the console.
// One definition of each text; src/shared/texts.ts re-exports this file.

/**
 * Messages the spec leaves open ("not shown"); chosen here and listed in docs/decisions/README.md.
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
