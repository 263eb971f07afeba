/**
 * Document arithmetic both halves must compute identically: the server applies writes with it and the
 * sync engine's overlay predicts the result with it, so a confirmed write never makes a row jump.
 */

/** Server-controlled fields: clients never set them, every incoming body drops them. */
export const META_FIELDS: ReadonlySet<string> = new Set(['_id', '_rev', '_created', '_updated', '_updatedBy'])

export type Body = Record<string, unknown>

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function stripMeta(body: Body): Body {
  const out: Body = {}
  for (const [k, v] of Object.entries(body)) if (!META_FIELDS.has(k)) out[k] = v
  return out
}

/** JSON merge patch (RFC 7386): objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

/**
 * The JSON merge patch that turns `from` into `to` (objects recursively, null for a removed field), so
 * mergePatch(from, diffPatch(from, to)) equals `to`. It is what a form's save sends: only what the user
 * changed relative to the version they opened, never a stale copy of the fields they left alone.
 */
export function diffPatch(from: Body, to: Body): Body {
  const out: Body = {}
  for (const [k, v] of Object.entries(to)) {
    const old = from[k]
    if (isPlainObject(v) && isPlainObject(old)) {
      const inner = diffPatch(old, v)
      if (Object.keys(inner).length) out[k] = inner
    } else if (JSON.stringify(v) !== JSON.stringify(old)) out[k] = v
  }
  for (const k of Object.keys(from)) if (!(k in to)) out[k] = null
  return out
}

/**
 * Whether applying `patch` to `target` leaves it as it is (every value equal, every removed field
 * already absent). Such a write changes nothing, so the engine does not queue it: an unchanged save or
 * a merge that takes every server value must not make a new revision (issue 11).
 */
export function isNoopPatch(target: Body, patch: Body): boolean {
  for (const [k, v] of Object.entries(patch)) {
    const old = target[k]
    if (v === null) {
      if (k in target) return false
    } else if (isPlainObject(v) && isPlainObject(old)) {
      if (!isNoopPatch(old, v)) return false
    } else if (JSON.stringify(v) !== JSON.stringify(old)) return false
  }
  return true
}
