/**
 * The one permission matcher (SPEC §6), used by the server on every route and by the console for the
 * menu and the group editor's preview, so both always agree.
 *
 * A permission is `path:letters` with letters from c r u d (create read update delete), * (all) and
 * n (none). A grant applies to a request when its path matches the request path as a prefix on a
 * segment boundary (`data` covers `data/contacts/1`, not `database`), `*` in a path matches any run of
 * characters, and it shares the request's method (n shares every method, because it blocks them all).
 * Among the grants that apply, the most specific path wins: the one with the most literal characters,
 * then the fewest wildcards; on a full tie `n` wins, so an ambiguous rule set fails closed.
 */
import { requiresAll, requiresOneOf } from './texts'

export type Method = 'c' | 'r' | 'u' | 'd'
export const METHODS: readonly Method[] = ['c', 'r', 'u', 'd']
const LETTERS = /^[crud*n]+$/

export interface Grant {
  raw: string
  path: string
  all: boolean
  none: boolean
  methods: ReadonlySet<Method>
  pattern: RegExp
  specificity: number
  wildcards: number
}

export class PermissionSyntaxError extends Error {}

const SLASH = 47

export function normalizePath(path: string): string {
  // Checked on every request, twice: most paths have no slash at either end, and need no regex.
  if (path.charCodeAt(0) !== SLASH && path.charCodeAt(path.length - 1) !== SLASH) return path
  return path.replace(/^\/+|\/+$/g, '')
}

/** Parses `path:letters`. Throws PermissionSyntaxError with a readable reason for bad entries. */
export function parsePermission(raw: string): Grant {
  const text = raw.trim()
  const colon = text.lastIndexOf(':')
  if (colon <= 0) throw new PermissionSyntaxError(`"${raw}" must be written path:letters, e.g. users:r`)
  const path = normalizePath(text.slice(0, colon))
  const letters = text.slice(colon + 1)
  if (!path) throw new PermissionSyntaxError(`"${raw}" has an empty path`)
  if (!/^[A-Za-z0-9_.@*/-]+$/.test(path))
    throw new PermissionSyntaxError(`"${raw}": a path may hold letters, digits, / _ . @ - and *`)
  if (!LETTERS.test(letters))
    throw new PermissionSyntaxError(`"${raw}": methods are letters from c r u d * n, e.g. users:cr`)
  const none = letters.includes('n')
  if (none && letters !== 'n') throw new PermissionSyntaxError(`"${raw}": n (none) cannot be combined`)
  const all = letters.includes('*')
  const methods = new Set<Method>(all ? METHODS : (letters.split('').filter((l) => l !== 'n') as Method[]))
  const source = path
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return {
    raw: text,
    path,
    all,
    none,
    methods,
    pattern: new RegExp(`^${source}(?:/.*)?$`),
    specificity: path.replace(/\*/g, '').length,
    wildcards: path.split('*').length - 1,
  }
}

/** Parses what it can; entries that do not parse are ignored (they grant nothing). */
export function parsePermissions(perms: readonly string[]): Grant[] {
  const out: Grant[] = []
  for (const p of perms) {
    try {
      out.push(parsePermission(p))
    } catch {
      // An unparseable grant must never widen access, so it is dropped.
    }
  }
  return out
}

export interface Decision {
  allowed: boolean
  /** The grant that decided, or null when nothing applied (denied by default). */
  winner: Grant | null
}

function beats(a: Grant, b: Grant): boolean {
  if (a.specificity !== b.specificity) return a.specificity > b.specificity
  if (a.wildcards !== b.wildcards) return a.wildcards < b.wildcards
  return a.none && !b.none
}

/** Decides one method on one path, and says which grant won. */
export function decide(grants: readonly Grant[], path: string, method: Method): Decision {
  const target = normalizePath(path)
  let winner: Grant | null = null
  for (const g of grants) {
    if (!g.none && !g.methods.has(method)) continue
    if (!g.pattern.test(target)) continue
    if (!winner || beats(g, winner)) winner = g
  }
  return { allowed: !!winner && !winner.none, winner }
}

/** Splits a requirement `path:letters` (letters optional: any method) into path and methods. */
function requirement(req: string): { path: string; methods: readonly Method[] } {
  const colon = req.lastIndexOf(':')
  if (colon < 0) return { path: normalizePath(req), methods: METHODS }
  return { path: normalizePath(req.slice(0, colon)), methods: methodsOf(req.slice(colon + 1)) }
}

/** The methods a requirement's letters name; a server asks with a handful of letter strings only. */
const methodsByLetters = new Map<string, readonly Method[]>()

function methodsOf(letters: string): readonly Method[] {
  let methods = methodsByLetters.get(letters)
  if (!methods) {
    const named = letters.includes('*') ? METHODS : (letters.split('') as Method[])
    methods = Object.freeze(named.filter((m) => METHODS.includes(m)))
    // Bounded: letters come from code and from stored settings, but never grow the map past this.
    if (methodsByLetters.size < 256) methodsByLetters.set(letters, methods)
  }
  return methods
}

/** True when the requirement is met by any one of its methods (`discounts:cud` = c or u or d). */
function meetsAny(grants: readonly Grant[], req: string): boolean {
  const { path, methods } = requirement(req)
  return methods.some((m) => decide(grants, path, m).allowed)
}

/** True when every method of the requirement is allowed. */
function meetsAll(grants: readonly Grant[], req: string): boolean {
  const { path, methods } = requirement(req)
  return methods.length > 0 && methods.every((m) => decide(grants, path, m).allowed)
}

export function can(perms: readonly string[] | readonly Grant[], req: string): boolean {
  return meetsAny(toGrants(perms), req)
}

export interface CheckResult {
  ok: boolean
  message?: string
}

/** SPEC §6: `any` passes when one requirement is met, `all` when every one is. */
export function check(
  perms: readonly string[] | readonly Grant[],
  required: readonly string[],
  mode: 'any' | 'all' = 'any',
): CheckResult {
  const grants = toGrants(perms)
  if (mode === 'any') {
    return required.some((r) => meetsAny(grants, r))
      ? { ok: true }
      : { ok: false, message: requiresOneOf(required) }
  }
  return required.every((r) => meetsAll(grants, r))
    ? { ok: true }
    : { ok: false, message: requiresAll(required) }
}

function toGrants(perms: readonly string[] | readonly Grant[]): readonly Grant[] {
  if (perms.length === 0) return []
  return typeof perms[0] === 'string'
    ? parsePermissions(perms as readonly string[])
    : (perms as readonly Grant[])
}

/** HTTP method → permission letter, as the server enforces it. */
export function methodLetter(httpMethod: string): Method {
  switch (httpMethod.toUpperCase()) {
    case 'POST':
      return 'c'
    case 'PUT':
    case 'PATCH':
      return 'u'
    case 'DELETE':
      return 'd'
    default:
      return 'r'
  }
}

/**
 * What `target` may do that `holder` may not, as `path:letters` entries. Compared on every path either
 * list names, so a narrower block on the holder's side (`data/secret:n`) counts as well as a wider
 * grant on the target's side. Wildcard paths are compared as written, which errs towards refusing.
 * (Delegated authority, server/auth/delegation.ts; here so the console asks the same question.)
 */
export function permissionsBeyond(holder: readonly Grant[], target: readonly Grant[]): string[] {
  const paths = [...new Set([...holder, ...target].map((g) => g.path))]
  const out: string[] = []
  for (const path of paths) {
    const missing = METHODS.filter((m) => decide(target, path, m).allowed && !decide(holder, path, m).allowed)
    if (missing.length) out.push(`${path}:${missing.join('')}`)
  }
  return out
}

/**
 * What saving the permission list `after` over `before` hands out (a group's edit, issue 35): what the
 * new list allows that the stored one did not — an added entry, a widened one, or a removed `n` block.
 * Its editor must hold each of them; what the group already held before the edit needs nothing, so
 * renaming a group that holds more than its editor is still possible.
 */
export function permissionsGained(before: readonly string[], after: readonly string[]): string[] {
  return permissionsBeyond(parsePermissions(before), parsePermissions(after))
}

/**
 * Which of `wanted` (`path:letters` entries) `held` does not allow, judged on each entry's own path as
 * the server's token and group checks judge them (auth/api-tokens.ts `beyond`); `n` entries narrow, so
 * they never need holding.
 */
export function notHeld(held: readonly Grant[], wanted: readonly string[]): string[] {
  return parsePermissions(wanted).flatMap((g) => {
    if (g.none) return []
    const missing = METHODS.filter((m) => g.methods.has(m) && !decide(held, g.path, m).allowed)
    return missing.length ? [`${g.path}:${missing.join('')}`] : []
  })
}

/** Of what saving `after` over `before` hands out, what `held` does not allow (the console's pre-check). */
export function notGrantable(
  held: readonly Grant[],
  before: readonly string[],
  after: readonly string[],
): string[] {
  return notHeld(held, permissionsGained(before, after))
}
