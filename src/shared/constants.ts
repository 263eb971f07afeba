/** SPEC §9 business constants and limits, one definition each. */

/** Websocket reconnect delay (SPEC §9); the client adds jitter so many tabs don't reconnect in step. */
export const WS_RECONNECT_MS = 15_000
/** Install prompt appears about a minute after load (SPEC §9), once the user has had time to look. */
export const INSTALL_PROMPT_DELAY_MS = 60_000
export const ANALYTICS_SHARED_ID_WAIT_MS = 200
export const SPEED_TEST_FIRST_BYTES = 1_000_000
export const SPEED_TEST_SECOND_BYTES = 20_000_000
/** 10 MB/s: only a fast link earns the bigger second download (SPEC §9). */
export const SPEED_TEST_FAST_BYTES_PER_S = 10_000_000
/**
 * The console starts its speed test this long after login in a tab: well after the start-up downloads
 * (shell, mirror) it would otherwise slow and be slowed by, and only in tabs that stay open a while,
 * so a quick look does not spend 21 MB of the user's bandwidth.
 */
export const SPEED_TEST_START_DELAY_MS = 30_000
/**
 * The console measures a device's connection on its own at most this often, across all its tabs
 * (localStorage): one run costs up to 21 MB, and a connection's speed changes over days, not minutes.
 * Every tab open 30 s measured again before, 147 MB in an hour of use (issue 36 #11).
 */
export const SPEED_TEST_EVERY_MS = 24 * 3600_000
export const SOCIAL_PREVIEW = { width: 1200, height: 630 } as const
export const DEFAULT_LOG_LEVEL = 'ERROR'
export const SDK_VERSION = '0.55.2'
export const PUSH_USER_VISIBLE_ONLY = true
export const STORAGE_COPY_SUFFIX = ' (COPY)'
export const TOAST_TIMEOUT_MS = 5000
export const TOAST_TICK_MS = 10
/** SPEC §9's three, and a neutral one for queued or started work (issue 36: never green before the server says so). */
export const TOAST_COLOURS = { success: 'green', error: 'red', warning: 'orange', info: 'grey' } as const
export type ToastColour = (typeof TOAST_COLOURS)[keyof typeof TOAST_COLOURS]
export const NARROW_BREAKPOINT_PX = 576
/** The media query of the narrow layout (below NARROW_BREAKPOINT_PX): the shell and the first frame. */
export const NARROW_MEDIA_QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`
/** The selection (checkbox) column of the virtualized table, and of the first frame that stands in for it. */
export const TABLE_CHECK_COLUMN_PX = 44
export const SIDEBAR_EXPANDED_PX = 290
export const SIDEBAR_COLLAPSED_PX = 50
export const CHAT_MAX_HEIGHT = '70vh'
export const CHAT_SCROLL_DELAY_MS = 100
export const CHAT_INPUT_MAX_HEIGHT_PX = 150
export const BREADCRUMB_DEBOUNCE_MS = 200
export const TOOLBAR_DARKEN_SCROLL_PX = 50
export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const
export const BYTE_STEP = 1024
/** SPEC §3 log levels, most severe first. */
export const LOG_LEVELS = ['ERROR', 'WARN', 'INFO', 'LOG', 'DEBUG'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
/** SPEC §7 collection modules served at /api/{module}. */
export const MODULES = [
  'actions',
  'discounts',
  'forms',
  'groups',
  'products',
  'schemas',
  'settings',
  'tokens',
  'transactions',
  'users',
] as const
export type ModuleName = (typeof MODULES)[number]
/** SPEC §3 known settings ids. */
export const SETTING_IDS = [
  'title',
  'description',
  'version',
  'logo',
  'contact',
  'public_url',
  'privacy_policy_url',
  'terms_of_service_url',
  'pwa',
  'theme',
  'push_public_key',
  'stripe_token',
  'webrtc_key',
  'webrtc_port',
] as const
/** Settings anyone may read before login: the shell needs them for theme and branding (issue 2). */
export const PUBLIC_SETTING_IDS = [
  'title',
  'description',
  'version',
  'logo',
  'contact',
  'public_url',
  'privacy_policy_url',
  'terms_of_service_url',
  'pwa',
  'theme',
  'push_public_key',
] as const
/** Settings that hold a link shown to everyone (the footer's legal links): http(s) addresses only. */
export const LINK_SETTING_IDS = ['privacy_policy_url', 'terms_of_service_url'] as const
/** Log channel reserved for the server's own log (SPEC §5). */
export const SERVER_LOG_CHANNEL = 'server'
/** Channel the console logs its own errors to (SPEC §8). */
export const CLIENT_LOG_CHANNEL = 'client'
/** Web Lock held by the tab that syncs (ARCHITECTURE §3). */
export const SYNC_LOCK_NAME = 'momentum-sync'
/** Background Sync tag registered on every outbox append (issue 5). */
export const OUTBOX_SYNC_TAG = 'outbox'
/** Background Sync tag registered when the storage queue (src/app/storage) holds waiting items (issue 12). */
export const STORAGE_SYNC_TAG = 'storage-queue'
/**
 * Web Locks of the storage queue, shared by the tabs and the service worker so that nobody sends one
 * item twice: JSON operations and uploads run in two lanes, so a folder made offline is not stuck
 * behind a long upload (docs/contributing/storage.md).
 */
export const STORAGE_OPS_LOCK = 'momentum-storage-ops'
export const STORAGE_UPLOADS_LOCK = 'momentum-storage-uploads'
/** An upload that moved no byte for this long is abandoned with 'Request timed out' and retried later. */
export const UPLOAD_STALL_MS = 60_000
/** A storage operation (mkdir, move, …) that got no answer in this time says 'Request timed out'. */
export const STORAGE_OP_TIMEOUT_MS = 30_000
/** Sync pull page size: large enough to amortise a request, small enough for one IndexedDB transaction. */
export const SYNC_PAGE_DEFAULT = 500
export const SYNC_PAGE_MAX = 2000
/** Default and largest page for collection lists. */
export const LIST_LIMIT_DEFAULT = 100
export const LIST_LIMIT_MAX = 1000
/**
 * Characters of document JSON the SQLite store keeps in memory for repeated reads (store/hot-docs.ts):
 * 16 Mi characters, 16-32 MiB, about 30,000 documents of the benchmark's size.
 */
export const HOT_DOCS_MAX_CHARS = 16 * 1024 * 1024
/** JSON request bodies above this are refused with 413; uploads have their own limit. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024
/** Resumable uploads (tus 1.0.0, contract C1 of issue 12): creation, HEAD and PATCH live under this path. */
export const TUS_PATH = '/api/uploads'
/**
 * Bytes per tus PATCH the console sends. Each PATCH is one HTTP request, so a chunk bounds what one
 * request holds (well inside REQUEST_MAX_MS even on a slow link, and inside a proxy's body limit);
 * the server keeps every byte that arrived even from a cut PATCH (it answers HEAD with them), so a
 * cut costs the bytes in flight, not the chunk. 8 MiB: ~100 requests for the 200 MB benchmark file,
 * a few seconds each on an ordinary uplink, and a progress event per chunk besides XHR's own.
 */
export const TUS_CHUNK_BYTES = 8 * 1024 * 1024
/** Largest file a resumable (tus) upload may create; multipart posts keep UPLOAD_LIMIT_BYTES. */
export const RESUMABLE_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024 * 1024
/**
 * An unfinished resumable upload that received no byte for this long is deleted with its partial
 * file (counted from the last byte, so a slow upload that keeps going never expires).
 */
export const TUS_EXPIRY_MS = 24 * 3600_000
/**
 * With a quota, an unfinished resumable upload holds room for its whole length (so two large uploads
 * started together cannot both fit), but only while it moves: one that received no PATCH for this long
 * lets the room go (its bytes stay until TUS_EXPIRY_MS), and its next PATCH asks for the room again.
 * 15 minutes outlasts a reconnect or a console's retry, and is what an upload that never sends a byte
 * can keep others out of the quota.
 */
export const TUS_HOLD_IDLE_MS = 15 * 60_000
/**
 * Unfinished resumable uploads one user may hold room for in one root at once (429 past it). The
 * console sends one upload at a time per device, so 8 leaves room for several devices and tabs while a
 * script cannot pin the quota with thousands of empty uploads.
 */
export const TUS_OPEN_UPLOADS_MAX = 8
/**
 * How long the server remembers a FINISHED upload (no bytes, just its entry): a client that lost the
 * last answer and comes back within this time learns it is done instead of sending the file again.
 */
export const TUS_FINISHED_KEEP_MS = 7 * 24 * 3600_000
/** How often expired partial uploads are swept (also once at start). */
export const TUS_SWEEP_INTERVAL_MS = 3600_000
/** Files one multipart upload may carry (the @fastify/multipart `files` limit); more are refused with 413. */
export const UPLOAD_FILES_MAX = 20
/** Longest storage path, in characters: far above real folder trees, well under the filesystem's PATH_MAX. */
export const STORAGE_PATH_MAX = 1024
/**
 * Longest name of one file or folder, in UTF-8 bytes (not characters): what ext4, XFS and Btrfs allow
 * (NAME_MAX), and within what APFS, NTFS and S3 keys take, so a name accepted here can be stored on
 * any of them and downloaded to any desktop. An accented letter takes 2 bytes, most emoji 4.
 */
export const STORAGE_NAME_MAX_BYTES = 255
/**
 * Share links (POST /api/share): how long a link lives when the caller does not say, and the bounds it
 * may ask for, in seconds. A week covers "send it to a colleague"; past 30 days a link outlives the
 * reason it was made, and a longer-lived copy belongs in the Web Server root instead. The floor is one
 * second so a script (and the tests) can make a link that expires at once.
 */
export const SHARE_DEFAULT_SECONDS = 7 * 24 * 3600
export const SHARE_MIN_SECONDS = 1
export const SHARE_MAX_SECONDS = 30 * 24 * 3600
/** The share dialog's choices of how long a link works, in seconds (the default is SHARE_DEFAULT_SECONDS). */
export const SHARE_EXPIRY_CHOICES = [
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 24 * 3600 },
  { label: '7 days', seconds: 7 * 24 * 3600 },
  { label: '30 days', seconds: 30 * 24 * 3600 },
] as const
/**
 * Deepest nesting of arrays and objects a JSON request body may have (issue 10). SQLite's JSON
 * functions stop at 1,000 levels, so one document nested 2,000 deep made every list of its collection
 * fail until an admin dropped it; PostgreSQL's json functions have a stack limit too. 100 leaves room
 * for the wrappers a stored document later travels in (change log, idempotency record, sync pages) and
 * is far beyond any document a person edits.
 */
export const MAX_DOCUMENT_DEPTH = 100
/**
 * Mutations per POST /api/batch: one transaction holds the store's writer this long, so keep it a few
 * hundred (an import of 10,000 rows is 20 requests). The engine also stops a batch at BATCH_BODY_BYTES.
 */
export const BATCH_MAX_MUTATIONS = 500
export const BATCH_BODY_BYTES = 2 * 1024 * 1024
/**
 * What one login session (or API token) may write to the log channels per minute (issue 10: any session
 * could flood the client log). The console sends a few lines a minute (its own burst guard); a full
 * batch of 1,000 lines or a full body (BODY_LIMIT_BYTES) still fits, so no valid request is refused
 * for ever. Past it, 429 with Retry-After.
 */
export const LOG_WRITE_BUDGET_PER_MINUTE = { lines: 1000, bytes: BODY_LIMIT_BYTES } as const
/** Login throttling: failures allowed per username+IP and per IP inside the window. */
export const LOGIN_MAX_FAILURES_PER_USER = 5
export const LOGIN_MAX_FAILURES_PER_IP = 20
export const LOGIN_WINDOW_MS = 15 * 60_000
/**
 * Password policy (NIST SP 800-63B §5.1.1, docs/decisions/security.md): at least 8 characters, at
 * most 256 (NIST asks to allow at least 64), and not guessable within 10^6 guesses by zxcvbn with its
 * common-password dictionary and the account's own words (score 0 and 1 are refused). No rules on
 * character classes, as NIST advises.
 */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 256
export const PASSWORD_MIN_SCORE = 2
/** Password-reset requests (each may send a mail) allowed per address and per IP in LOGIN_WINDOW_MS. */
export const RESET_MAX_PER_ADDRESS = 3
export const RESET_MAX_PER_IP = 10
/** Session tokens default to a week; `expire` on login may ask for less or more, up to a year. */
export const SESSION_DEFAULT_SECONDS = 7 * 24 * 3600
export const SESSION_MAX_SECONDS = 365 * 24 * 3600
/**
 * Open websockets per login session and per user (docs/decisions/security.md, "Sockets, push and
 * transport"). The console opens one socket per tab plus the sync stream in the leader tab, and one
 * login session is shared by every tab of a browser: 16 covers 15 tabs; 32 per user covers two
 * browsers or devices that busy. Past the cap the NEW socket is refused (SOCKET_CLOSE_TOO_MANY) and
 * the ones already open keep working; refused clients back off up to SOCKET_REFUSED_BACKOFF_MAX_MS.
 */
export const SOCKETS_PER_SESSION_MAX = 16
export const SOCKETS_PER_USER_MAX = 32
/** Longest wait between attempts of a client whose socket keeps being refused for the cap above. */
export const SOCKET_REFUSED_BACKOFF_MAX_MS = 5 * 60_000
/**
 * Serialized size a `changes` frame of the streaming pull (and a GET /api/sync page) stays under, on
 * top of the row limit: big documents come in more, smaller pages instead of one giant frame. A
 * single change larger than this travels alone (documents are bounded by BODY_LIMIT_BYTES).
 */
export const SYNC_PAGE_MAX_BYTES = 1024 * 1024
/**
 * Answers of the bulky read routes (sync pages, collection lists) are compressed from this size up
 * (server/http/compressed.ts); below it the framing costs about what it saves.
 */
export const API_COMPRESS_MIN_BYTES = 1024
/**
 * Websocket frames from this size up are sent deflated (permessage-deflate, when the client offers it):
 * a reconnecting client's catch-up pages, up to SYNC_PAGE_MAX_BYTES each. A live change or a topic notice
 * stays below it and goes out at once, without a trip through zlib.
 */
export const SOCKET_COMPRESS_MIN_BYTES = 16 * 1024
/**
 * HTTP transport limits (docs/decisions/security.md). A request whose headers are not complete in
 * HEADERS_TIMEOUT_MS, or whose body stops arriving for BODY_IDLE_TIMEOUT_MS, is cut off (408): an idle
 * timeout rather than one on the whole request, so a steady upload over a slow link always finishes.
 * REQUEST_MAX_MS is only the outer bound for a body trickled just under the idle timeout: a 20 MB
 * upload at 64 kbit/s takes 45 minutes.
 */
export const HEADERS_TIMEOUT_MS = 30_000
export const BODY_IDLE_TIMEOUT_MS = 30_000
export const REQUEST_MAX_MS = 2 * 3600_000
/**
 * An answer given before its request body has arrived (a 401, 403, 413 or 415 decided on the headers or
 * the first bytes): the server reads and discards at most this much of the rest, then closes the
 * connection (server/http/unread-body.ts). Twice the JSON limit: a body that overshoots the limit by
 * up to the limit again is read to its end, so its client finishes sending and reads the answer
 * cleanly (a connection cut while a client sends is EPIPE there instead of the status); a longer one
 * is cut, its client having had the answer all that while, and a refusal never costs the server more
 * reading than two accepted bodies.
 */
export const UNREAD_BODY_DISCARD_MAX_BYTES = 2 * BODY_LIMIT_BYTES
/** Largest /api/tools/dummy-file: above the 20 MB second speed-test download (SPEC §9), no more. */
export const DUMMY_FILE_MAX_BYTES = 25_000_000
/**
 * The console's dark-mode surface (base.css `--bg` under data-theme="dark"): the theme-color of the
 * page and the manifest in dark mode, so the browser's bar does not glare in the primary colour.
 */
export const DARK_SURFACE = '#0e1116'
/** Non-conforming documents a schema's conformance report lists by id (issue 17); the count is exact. */
export const SCHEMA_REPORT_LIMIT = 200
