/**
 * The documents the edited schema would not accept (issue 36: listed before saving), checked with the
 * shared validator (src/shared/schema-validation.ts), whose messages are the server's 400 ones. Pure.
 */
import {
  type FieldErrors,
  hasFieldErrors,
  type JsonSchema,
  validateDocument,
} from '../../../../shared/schema-validation'

/** More than this are counted, not listed: the list is for opening a few and fixing them. */
export const VIOLATIONS_LISTED = 50

export interface Violation {
  id: string
  fields: FieldErrors
}

export interface Violations {
  checked: number
  count: number
  /** The first VIOLATIONS_LISTED, in the order checked. */
  listed: Violation[]
}

export const NO_VIOLATIONS: Violations = { checked: 0, count: 0, listed: [] }

/** Adds `docs` (one page of a scan) to `into`. */
export function addViolations(
  into: Violations,
  schema: JsonSchema,
  docs: readonly { _id: string }[],
): Violations {
  let { checked, count } = into
  const listed = [...into.listed]
  for (const doc of docs) {
    checked++
    const fields = validateDocument(schema, doc)
    if (!hasFieldErrors(fields)) continue
    count++
    if (listed.length < VIOLATIONS_LISTED) listed.push({ id: doc._id, fields })
  }
  return { checked, count, listed }
}
