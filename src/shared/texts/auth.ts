// Authentication screens, API tokens, security review, password policy and browser-security texts.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { cannotDo } from './spec'

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
