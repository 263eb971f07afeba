// The console shell: feedback, shell chrome, service worker and install texts.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** Feedback parts of the shell (toasts, confirmations, install prompt, connection state). */
export const FEEDBACK_TEXT = {
  success: 'Success',
  error: 'Error',
  warning: 'Warning',
  /** The neutral toast's title: work queued or started whose outcome is not known yet. */
  pending: 'Pending',
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

/** Console shell texts the spec leaves open (see docs/decisions/shell.md). */
export const SHELL_TEXT = {
  notFound: 'Page not found',
  notFoundText: (path: string): string => `There is no page at ${path}.`,
  serverUnreachable: 'Cannot reach the server. Check your connection and try again.',
  hostedNoOpener: 'This login window was not opened by a page that is waiting for it.',
  hostedBadHost: 'This login link does not say which site to return to.',
  totpPrompt: 'Enter the 6-digit code from your authenticator app.',
  restoring: 'Connecting to the server…',
  offlineNoSession:
    'You are offline, so your session cannot be opened yet. It opens by itself once you are back online.',
  /** A screen whose code never reached this device (first visit while offline): ScreenBoundary. */
  screenNotLoaded:
    'This screen is not on this device yet — it needs the network once. Your other screens and unsent changes are kept.',
  screenFailed: (message: string): string => `This screen stopped with an error: ${message}`,
  tryAgain: 'Try again',
  reload: 'Reload',
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
