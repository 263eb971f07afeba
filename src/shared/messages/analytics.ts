// The analytics collector and dashboards.
// One definition of each text; src/shared/messages.ts re-exports this file.

/** The analytics collector and its dashboards' API (issue 16, docs/analytics.md). */
export const ANALYTICS_TEXT = {
  invalidRecord: (detail: string): string => `Invalid analytics record: ${detail}`,
  invalidPatch: (detail: string): string => `Invalid analytics update: ${detail}`,
  visitMissing: 'No such visit, or it is older than the retention period',
  invalidRange: (detail: string): string => `Invalid range: ${detail}`,
  invalidIp: 'Not an IPv4 or IPv6 address',
  invalidSettings: (detail: string): string => `Invalid analytics settings: ${detail}`,
  tooMany: 'Too many analytics requests from this address; try again shortly',
} as const
