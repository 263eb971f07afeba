// Collections, queries, logs, the Database/Settings screens, batch and import/export.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { countOf, grouped } from '../plural'
import { deletedToast } from './spec'

/** Refusals of the collection modules, user images and tools (docs/operating/api.md); the spec leaves them open. */
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

/** Refusals of the query subset (docs/operating/query.md) used by /api/data and every list; the spec leaves them open. */
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

/** Refusals of the logs API (docs/operating/query.md#logs); the spec leaves them open except the reserved channel. */
export const LOG_TEXT = {
  channelsReserved: "The log channel 'channels' is reserved",
  badEntry: 'A log entry must be an object {level, log, ctx}',
  badLevel: (levels: readonly string[]): string => `Invalid log level: use one of ${levels.join(', ')}`,
  badLog: (max: number): string => `A log entry needs log as a string of at most ${max} characters`,
  badTime: 'Invalid log time: use an ISO 8601 date or epoch milliseconds',
  badCount: (max: number): string => `Send from 1 to ${max} log entries at a time`,
  badSearch: (max: number): string => `q must be at most ${max} characters`,
} as const

/** Database, logs and settings screens: texts the spec leaves open (docs/decisions/screens.md). */
export const SCREENS_TEXT = {
  notSynced: 'Not synced yet',
  notSyncedHint: 'Saved on this device; it is sent to the server when the connection allows.',
  conflict: 'Conflict',
  conflictHint: 'The server changed this too: open the conflict to choose which version stays.',
  refused: 'Refused',
  refusedHint: 'The server refused this change: open it to see why, and edit or discard it.',
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
  /** The delete toast while offline: SPEC §8's "Deleted N item(s)", and that the server learns it later. */
  deletedOffline: (n: number): string =>
    `${deletedToast(n)} on this device; it will be sent when you are online`,
  /** A save on its way while the server is in reach: neutral until the server answers (issue 36). */
  saving: (thing: string): string => `Saving ${thing}…`,
  deleting: (n: number): string => `Deleting ${n} item(s)…`,
  savingBatch: (n: number, things: string): string => `Saving ${n} ${things}…`,
  /** The same toast (or a new one, if it has closed) when the server refused the queued write. */
  notSaved: (thing: string, message: string): string => `${thing} was not saved: ${message}`,
  notDeleted: (message: string): string => `Not deleted: ${message}`,
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

/** POST /api/batch (docs/operating/api.md#batch) and the Database screen's import and export (docs/using/database-logs-settings.md). */
export const BATCH_TEXT = {
  badBody: 'Send {"mutations": [{method, path, body, idempotencyKey, ifMatch}, …]}',
  tooMany: (max: number): string => `A batch holds 1 to ${max} mutations`,
  badEntry: 'Each mutation needs a method and a path',
  unsupported: (method: string, path: string): string =>
    `Not supported in a batch: ${method} ${path} (data documents only)`,
  badKey: 'idempotencyKey must be a string of at most 200 characters',
} as const

/** The Database screen's import preview and export choices (issue 11, docs/using/database-logs-settings.md). */
export const TRANSFER_TEXT = {
  previewTitle: 'Import preview',
  delimiter: 'Delimiter',
  delimiterNames: { ',': 'comma (,)', ';': 'semicolon (;)', '\t': 'tab', '|': 'pipe (|)' } as Record<
    string,
    string
  >,
  format: 'Format',
  rowCount: (n: number): string => countOf(n, 'row'),
  columns: 'Columns',
  firstRows: (n: number): string => `First ${n} ${n === 1 ? 'row' : 'rows'}`,
  replacing: (n: number): string =>
    `${grouped(n)} existing ${n === 1 ? 'document' : 'documents'} will be replaced`,
  confirm: (n: number): string => `Import ${grouped(n)}`,
  cancel: 'Cancel',
  reading: 'Reading the file…',
  stored: (done: number, total: number): string =>
    `${grouped(done)} of ${grouped(total)} stored on this device`,
  sent: (done: number, total: number): string => `Sent ${grouped(done)} of ${grouped(total)}`,
  waitingToSend: (total: number): string =>
    `${grouped(total)} stored on this device; they are sent when you are online`,
  needReview: (n: number): string =>
    `${grouped(n)} ${n === 1 ? 'document was' : 'documents were'} refused by the server: review ${n === 1 ? 'it' : 'them'} in the Sync panel`,
  exportAll: (n: number): string => `All (${grouped(n)})`,
  exportFiltered: (n: number): string => `Filtered view (${grouped(n)})`,
  exportSelected: (n: number): string => `Selected (${grouped(n)})`,
} as const
