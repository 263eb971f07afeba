/**
 * What a group's permission list means, in words, computed with the one shared matcher (decide()) the
 * server enforces with — so the preview cannot disagree with the server. Pure functions: the group
 * page renders them, and a unit test plus an end-to-end test hold them to the server's decisions.
 */
import {
  type Decision,
  decide,
  type Grant,
  METHODS,
  type Method,
  PermissionSyntaxError,
  parsePermission,
} from '../../../shared/permissions'

/** Console sections and the API path each one's data lives under (SPEC §6, §7). */
export const SECTIONS: readonly { label: string; path: string }[] = [
  { label: 'Actions', path: 'actions' },
  { label: 'AI Assistant', path: 'ai' },
  { label: 'Analytics', path: 'analytics' },
  { label: 'Users', path: 'users' },
  { label: 'Groups', path: 'groups' },
  { label: 'API tokens', path: 'tokens' },
  { label: 'Database', path: 'data' },
  { label: 'Forms', path: 'forms' },
  { label: 'Schemas', path: 'schemas' },
  { label: 'Messages', path: 'messages' },
  { label: 'Products', path: 'products' },
  { label: 'Discount Codes', path: 'discounts' },
  { label: 'Payments', path: 'payments' },
  { label: 'Transactions', path: 'transactions' },
  { label: 'Storage', path: 'storage' },
  { label: 'Templates', path: 'templates' },
  { label: 'Web Server', path: 'static' },
  { label: 'Logs', path: 'logs' },
  { label: 'Server Logs', path: 'logs/server' },
  { label: 'Settings', path: 'settings' },
]

export const METHOD_WORDS: Record<Method, string> = { c: 'create', r: 'read', u: 'update', d: 'delete' }

export interface EntryCheck {
  raw: string
  grant: Grant | null
  error: string | null
}

/** Each non-empty line parsed; errors are parsePermission's own messages. */
export function checkEntries(entries: readonly string[]): EntryCheck[] {
  return entries.map((raw) => {
    try {
      return { raw, grant: parsePermission(raw), error: null }
    } catch (e) {
      return { raw, grant: null, error: e instanceof PermissionSyntaxError ? e.message : String(e) }
    }
  })
}

export interface Cell {
  method: Method
  decision: Decision
  why: string
}

export function previewPath(grants: readonly Grant[], path: string): Cell[] {
  return METHODS.map((method) => {
    const decision = decide(grants, path, method)
    return { method, decision, why: explain(decision, path, method) }
  })
}

/** Why one method on one path is allowed or refused, naming the winning entry. */
export function explain(decision: Decision, path: string, method: Method): string {
  const verb = METHOD_WORDS[method]
  const w = decision.winner
  if (!w) return `No entry matches ${path} for ${verb}: refused by default.`
  const how = w.path === path ? 'names this path' : `is the most specific entry covering ${path}`
  if (w.none) return `${w.raw} ${how} and blocks every method, so ${verb} is refused.`
  return `${w.raw} ${how} and grants ${verb}.`
}

/** "can read, update Users" / "cannot use Users" — one clause per section. */
export function sectionSentence(label: string, cells: readonly Cell[]): string {
  const can = cells.filter((c) => c.decision.allowed).map((c) => METHOD_WORDS[c.method])
  const cannot = cells.filter((c) => !c.decision.allowed).map((c) => METHOD_WORDS[c.method])
  if (!can.length) return `cannot use ${label}`
  if (!cannot.length) return `can do everything in ${label}`
  return `can ${can.join(', ')} ${label}, cannot ${cannot.join(', ')}`
}

/** The whole group in one line: "can read Logs; cannot use Users; …" (sections it can use first). */
export function summary(grants: readonly Grant[]): string {
  const parts = SECTIONS.map((s) => ({ s, cells: previewPath(grants, s.path) }))
  const usable = parts.filter((p) => p.cells.some((c) => c.decision.allowed))
  const none = parts.filter((p) => !p.cells.some((c) => c.decision.allowed)).map((p) => p.s.label)
  const clauses = usable.map((p) => sectionSentence(p.s.label, p.cells))
  if (none.length) clauses.push(`cannot use ${none.join(', ')}`)
  return clauses.join('; ')
}
