/**
 * Strict checks of what the public collector sends (docs/operating/analytics.md "Wire format"). Anyone may POST,
 * so every element is checked for type and range and the first fault is named in the 400; nothing is
 * coerced, so a wrong client is noticed rather than silently storing rubbish.
 */
import {
  ANALYTICS_ID_PATTERN,
  ANALYTICS_LANGUAGE_PATTERN,
  type AnalyticsSettings,
  DEFAULT_RANGE_MS,
  GRANULARITY_MS,
  type Granularity,
  HOURLY_RANGE_MAX_MS,
  ANALYTICS_LIMITS as L,
  MAX_BUCKETS,
  RETENTION_DAYS_MAX,
  type Visit,
} from '../../shared/analytics'
import { ANALYTICS_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'

/**
 * A visit as the collector describes it (epoch ms time), before the server adds id, address, country
 * and autonomous system.
 */
export type IncomingVisit = Omit<Visit, 'id' | 'time' | 'ip' | 'country' | 'asn' | 'org' | 'durationMs'> & {
  time: number
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isInt = (v: unknown): v is number => Number.isInteger(v)

function fail(detail: string): never {
  throw badRequest(ANALYTICS_TEXT.invalidRecord(detail))
}

function intIn(v: unknown, name: string, min: number, max: number): number {
  if (!isInt(v) || (v as number) < min || (v as number) > max)
    fail(`${name} must be a whole number from ${min} to ${max}`)
  return v as number
}

function numOrNull(v: unknown, name: string, min: number, max: number, whole = false): number | null {
  if (v === null) return null
  if (!isNum(v) || v < min || v > max || (whole && !Number.isInteger(v)))
    fail(`${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, or null`)
  return v
}

function text(v: unknown, name: string): string {
  if (typeof v !== 'string' || v.length > L.textMax)
    fail(`${name} must be a string of at most ${L.textMax} characters`)
  return v
}

/** Only the host of a referrer is kept: the rest of a URL may carry search terms or tokens. */
export function referrerHost(value: string): string {
  if (value === '') return ''
  try {
    return new URL(value).host.toLowerCase()
  } catch {
    return fail('referrer must be empty or an absolute URL')
  }
}

/** The path without query or hash, which may carry personal data (search terms, reset tokens). */
export function cleanPath(value: string): string {
  if (!value.startsWith('/')) fail("path must start with '/'")
  return value.replace(/[?#].*$/s, '') || '/'
}

export function parseRecord(body: unknown, now: number): IncomingVisit {
  if (!Array.isArray(body)) fail('the body must be a JSON array')
  if (body.length !== 11 && body.length !== 12) fail(`expected 11 or 12 elements, got ${body.length}`)
  const [language, tz, cpu, memory, width, height, speed, path, referrer, visitor, session, time] = body
  if (typeof language !== 'string' || language.length > 35 || !ANALYTICS_LANGUAGE_PATTERN.test(language))
    fail('language must be a language tag such as en-GB')
  for (const [v, name] of [
    [visitor, 'visitorId'],
    [session, 'sessionId'],
  ] as const) {
    if (typeof v !== 'string' || !ANALYTICS_ID_PATTERN.test(v))
      fail(`${name} must be 8 to 64 letters, digits, '-' or '_'`)
  }
  let at = now
  if (body.length === 12) {
    if (!isInt(time)) fail('time must be a whole number of milliseconds since 1970')
    if ((time as number) < now - L.backdateMaxMs || (time as number) > now + L.futureSkewMs)
      fail('time must be within the last 7 days')
    at = time as number
  }
  return {
    time: at,
    language,
    tzOffset: intIn(tz, 'tzOffset', -L.tzOffsetMax, L.tzOffsetMax),
    cpu: numOrNull(cpu, 'cpu', 1, L.cpuMax, true),
    memory: numOrNull(memory, 'memory', L.memoryMin, L.memoryMax),
    width: intIn(width, 'width', 0, L.screenMax),
    height: intIn(height, 'height', 0, L.screenMax),
    speed: numOrNull(speed, 'speed', 0, L.speedMaxMbps),
    path: cleanPath(text(path, 'path')),
    referrer: referrerHost(text(referrer, 'referrer')),
    visitor: visitor as string,
    session: session as string,
  }
}

export interface VisitPatch {
  durationMs: number | null
  speed: number | null
}

export function parsePatch(body: unknown): VisitPatch {
  const bad = (detail: string): never => {
    throw badRequest(ANALYTICS_TEXT.invalidPatch(detail))
  }
  if (!Array.isArray(body) || body.length !== 2)
    return bad('the body must be a JSON array [durationMs, speed]')
  const [duration, speed] = body
  if (duration !== null && (!isInt(duration) || duration < 0 || duration > L.durationMaxMs))
    bad(`durationMs must be a whole number from 0 to ${L.durationMaxMs}, or null`)
  if (speed !== null && (!isNum(speed) || speed < 0 || speed > L.speedMaxMbps))
    bad(`speed must be a number from 0 to ${L.speedMaxMbps}, or null`)
  if (duration === null && speed === null) bad('durationMs or speed must be given')
  return { durationMs: duration as number | null, speed: speed as number | null }
}

export interface Range {
  /** Bucket-aligned start (inclusive) and end (exclusive), epoch ms. */
  from: number
  to: number
  granularity: Granularity
}

function time(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw badRequest(ANALYTICS_TEXT.invalidRange(`${name} must be given once`))
  const ms = /^\d{1,15}$/.test(value) ? Number(value) : Date.parse(value)
  if (!Number.isFinite(ms)) throw badRequest(ANALYTICS_TEXT.invalidRange(`${name} is not a date`))
  return ms
}

/** from/to/granularity of a summary, widened to whole UTC buckets (docs/operating/analytics.md "Summary"). */
export function parseRange(query: Record<string, unknown>, now: number): Range {
  const to = time(query.to, 'to') ?? now
  const from = time(query.from, 'from') ?? to - DEFAULT_RANGE_MS
  if (from >= to) throw badRequest(ANALYTICS_TEXT.invalidRange('from must be before to'))
  const g = query.granularity
  if (g !== undefined && g !== 'hour' && g !== 'day')
    throw badRequest(ANALYTICS_TEXT.invalidRange('granularity must be hour or day'))
  const granularity: Granularity = g ?? (to - from > HOURLY_RANGE_MAX_MS ? 'day' : 'hour')
  const size = GRANULARITY_MS[granularity]
  const start = Math.floor(from / size) * size
  const end = Math.ceil(to / size) * size
  if ((end - start) / size > MAX_BUCKETS[granularity])
    throw badRequest(
      ANALYTICS_TEXT.invalidRange(`at most ${MAX_BUCKETS[granularity]} ${granularity} buckets at a time`),
    )
  return { from: start, to: end, granularity }
}

/** An optional whole-number query parameter within [1, max]. */
export function parseLimit(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw badRequest(ANALYTICS_TEXT.invalidRange(`limit must be a whole number from 1 to ${max}`))
  return Number(value)
}

export function parseSettings(body: unknown): AnalyticsSettings {
  const bad = (detail: string): never => {
    throw badRequest(ANALYTICS_TEXT.invalidSettings(detail))
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return bad('send an object')
  const b = body as Record<string, unknown>
  const extra = Object.keys(b).filter((k) => !['anonymizeIp', 'retentionDays', 'honourDnt'].includes(k))
  if (extra.length) bad(`unknown field ${extra[0]}`)
  if (typeof b.anonymizeIp !== 'boolean') bad('anonymizeIp must be true or false')
  if (typeof b.honourDnt !== 'boolean') bad('honourDnt must be true or false')
  if (
    !isInt(b.retentionDays) ||
    (b.retentionDays as number) < 1 ||
    (b.retentionDays as number) > RETENTION_DAYS_MAX
  )
    bad(`retentionDays must be a whole number from 1 to ${RETENTION_DAYS_MAX}`)
  return {
    anonymizeIp: b.anonymizeIp as boolean,
    retentionDays: b.retentionDays as number,
    honourDnt: b.honourDnt as boolean,
  }
}
