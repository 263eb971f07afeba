/**
 * The dashboards' time range and granularity as the pickers hold them, and the summary query they
 * become. Presets are relative to now, so the same preset is the same cached dashboard tomorrow; a
 * custom range is whole local days. Hourly buckets are offered only where the server allows them
 * (MAX_BUCKETS in src/shared/analytics.ts).
 */
import { GRANULARITY_MS, type Granularity, MAX_BUCKETS } from '../../../shared/analytics'

export const PRESETS = [
  { id: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  { id: '90d', label: 'Last 90 days', ms: 90 * 86_400_000 },
] as const
export type PresetId = (typeof PRESETS)[number]['id']

export type RangeChoice =
  | { kind: 'preset'; preset: PresetId; granularity: Granularity }
  /** Local calendar days, yyyy-mm-dd, both included. */
  | { kind: 'custom'; from: string; to: string; granularity: Granularity }

export const DEFAULT_RANGE: RangeChoice = { kind: 'preset', preset: '7d', granularity: 'day' }

/** [from, to) in epoch ms. */
export function rangeBounds(choice: RangeChoice, now: number): [number, number] {
  if (choice.kind === 'preset') {
    const preset = PRESETS.find((p) => p.id === choice.preset) ?? PRESETS[1]
    return [now - preset.ms, now]
  }
  const from = new Date(`${choice.from}T00:00:00`).getTime()
  const to = new Date(`${choice.to}T00:00:00`).getTime() + 86_400_000
  return [from, Math.max(from + 3_600_000, to)]
}

/** Hourly buckets fit in the range the server accepts. */
export function hourlyAllowed(choice: RangeChoice, now: number): boolean {
  const [from, to] = rangeBounds(choice, now)
  return (to - from) / GRANULARITY_MS.hour <= MAX_BUCKETS.hour - 1
}

/** The granularity to ask for: the chosen one, or days when hours would be too many. */
export function effectiveGranularity(choice: RangeChoice, now: number): Granularity {
  return choice.granularity === 'hour' && !hourlyAllowed(choice, now) ? 'day' : choice.granularity
}

export function summaryQuery(choice: RangeChoice, now: number): Record<string, string | number> {
  const [from, to] = rangeBounds(choice, now)
  return { from, to, granularity: effectiveGranularity(choice, now), limit: 20 }
}

/** The cache key of a dashboard: the same choice offline shows what it showed online. */
export function rangeKey(choice: RangeChoice): string {
  return choice.kind === 'preset'
    ? `${choice.preset}:${choice.granularity}`
    : `${choice.from}..${choice.to}:${choice.granularity}`
}

/** 'yyyy-mm-dd' of a local day. */
export function isoDay(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}
