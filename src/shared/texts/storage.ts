// Storage and Web Server files: API refusals, downloads, the file browser and the offline queue.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { STORAGE_NAME_MAX_BYTES } from '../constants'

/** Storage and Web Server files (SPEC §5 "Storage operations need a path; move needs a source and a destination"). */
export const STORAGE_TEXT = {
  pathMissing: 'Cannot change storage, missing path',
  moveMissing: 'Cannot move, missing source or destination',
  pathInvalid:
    'Invalid path: names separated by /, without empty, . or .. parts, a leading /, control characters or \\',
  nameTooLong: (bytes: number): string =>
    `This name is ${bytes.toLocaleString('en')} bytes long: a file or folder name may be at most ${STORAGE_NAME_MAX_BYTES} bytes (a letter with an accent takes 2, most emoji 4). Shorten it and try again`,
  nameRefused:
    "The server's filesystem refused this name or path as too long or not valid. Shorten it and try again",
  outsideRoot: 'This path leads outside the storage root',
  symlinkRefused: 'This path goes through a symbolic link, which the server does not follow',
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
  quotaBusy: 'Too many files are being saved here at once to check the quota. Try again in a moment',
  tusOpenUploads: (max: number): string =>
    `You already have ${max} unfinished uploads here. Let one finish or cancel it, or wait a few minutes and try again`,
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

/** The Storage and Web Server file browser (docs/using/storage.md). */
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
  /** The share dialog (issue 36 #13): how long the link works. */
  shareTitle: (name: string): string => `Share ${name}`,
  shareExpiry: 'The link works for',
  shareExplain: 'Anyone with the link can download this file without logging in, until it expires.',
  shareSubmit: 'Copy link',
  linkCopiedUntil: (until: string): string => `Link copied to the clipboard; it works until ${until}`,
  linkNeedsNetwork: 'Creating a link needs the network.',
  keptOffline: (name: string): string => `${name} is kept on this device`,
  rootName: { storage: 'Storage', static: 'Web Server' },
  nameInvalid: 'A name cannot be empty, contain / or \\, or be . or ..',
  nameTaken: 'A file or folder with this name is already here',
  notUploaded: (n: number, first: string, reason: string): string =>
    `${n === 1 ? `${first} was` : `${first} and ${n - 1} more were`} not uploaded. ${reason}`,
} as const

/** The storage queue: offline and resumable writes of Storage and Web Server files (docs/contributing/storage.md). */
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
