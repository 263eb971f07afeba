// Sync: the pull and websocket refusals, the sync UI and edit-base conflicts.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { countOf, grouped } from '../plural'

/** Refusals of the sync pull and the websocket (docs/contributing/sync-protocol.md); the spec leaves them open. */
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

/** The console's sync status, Sync panel, conflict view and banners (docs/using/sync.md); the spec leaves them open. */
export const SYNC_UI_TEXT = {
  online: 'Synced',
  offline: 'Offline',
  syncing: 'Syncing',
  pendingBadge: (n: number): string => `${n} change${n === 1 ? '' : 's'} not yet sent`,
  /** Online with changes on their way: "Sending · 1841 left" (issue 11), not "Synced · … not yet sent". */
  sendingLeft: (n: number): string => `Sending · ${grouped(n)} left`,
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
  /**
   * A screen whose data this device has never loaded, opened while the server is out of reach
   * (issue 36, "The rule"): said instead of the browser's "Failed to fetch".
   */
  notLoaded: 'Not loaded on this device yet — needs the network',
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

/** Editing a document that changed or went away meanwhile (docs/decisions/edit-base.md); the spec leaves them open. */
export const EDIT_BASE_TEXT = {
  changedElsewhere:
    'Someone else changed this while you were editing. Saving sends only your changes: their other changes are kept, and a field you both changed goes to the Sync panel for your decision.',
  goneWithEdits:
    'This document was deleted elsewhere while you were editing it. Your changes are still here: re-create the document with them, or discard them.',
  recreate: 'Re-create with my changes',
  discard: 'Discard',
} as const

/**
 * A queued write the server refused, shown on the screen where it was made (issue 35: next to the
 * field it concerns, not only in the Sync panel).
 */
export const REFUSAL_TEXT = {
  refused: (message: string): string => `Not saved: the server refused this change. ${message}`,
  /** The same, on a screen of several documents (Settings): which one it was. */
  refusedOne: (what: string, message: string): string =>
    `${what} was not saved: the server refused this change. ${message}`,
  discard: 'Discard my change',
  discarded: 'Your refused change was discarded',
} as const
