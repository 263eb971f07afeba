// The analytics collector and dashboards.
// One definition of each text; src/shared/texts.ts re-exports this file.
import { SPEED_TEST_FAST_BYTES_PER_S, SPEED_TEST_FIRST_BYTES, SPEED_TEST_SECOND_BYTES } from '../constants'

/** The analytics collector and its dashboards' API (issue 16, docs/operating/analytics.md). */
export const ANALYTICS_TEXT = {
  invalidRecord: (detail: string): string => `Invalid analytics record: ${detail}`,
  invalidPatch: (detail: string): string => `Invalid analytics update: ${detail}`,
  visitMissing: 'No such visit, or it is older than the retention period',
  invalidRange: (detail: string): string => `Invalid range: ${detail}`,
  invalidIp: 'Not an IPv4 or IPv6 address',
  invalidSettings: (detail: string): string => `Invalid analytics settings: ${detail}`,
  tooMany: 'Too many analytics requests from this address; try again shortly',
} as const

const mb = (bytes: number) => `${Math.round(bytes / 1_000_000)} MB`

/** The Users dashboard's "Your connection" panel (src/app/routes/analytics/SpeedPanel.tsx). */
export const SPEED_TEXT = {
  title: 'Your connection',
  idle: 'Not measured yet.',
  running: 'Measuring…',
  done: (speed: string, steps: string, when: string): string => `${speed} (${steps} downloaded, ${when})`,
  saveData: 'Not measured: this connection asks to save data.',
  cellular: 'Not measured: this is a mobile connection, where the download would use your data plan.',
  doNotTrack: 'Not measured: this browser asks not to be tracked.',
  cancelled: 'Cancelled.',
  failed: (message: string): string => `Could not measure: ${message}`,
  // A function, not a computed string: a module-level call would keep this file in every bundle.
  cost: (): string =>
    `The test downloads ${mb(SPEED_TEST_FIRST_BYTES)}, and ${mb(SPEED_TEST_SECOND_BYTES)} more on a connection faster than ${(SPEED_TEST_FAST_BYTES_PER_S * 8) / 1_000_000} Mbit/s (${mb(SPEED_TEST_FIRST_BYTES + SPEED_TEST_SECOND_BYTES)} in all). The console runs it by itself at most once a day on this device, shared by all its tabs, and never on a mobile connection or one that asks to save data.`,
  run: 'Test speed',
  cancel: 'Cancel',
} as const

/**
 * Where the trace view's autonomous systems come from (@ip-location-db/asn, CC BY 4.0): its licence
 * asks for the sources to be named, and DB-IP's for a link back on every page that shows a result.
 */
export const ASN_SOURCE_TEXT = {
  label: 'Autonomous system',
  column: 'Network',
  before: 'Autonomous systems from RouteViews, the NRO and ',
  link: 'IP Geolocation by DB-IP',
  href: 'https://db-ip.com',
  after: ' (CC BY 4.0), looked up offline.',
} as const
