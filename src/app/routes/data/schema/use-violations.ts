/**
 * The mirrored documents the edited schema would not accept, live: checked again a moment after the
 * last edit (not on every keystroke) and when the collection's documents change. undefined while a
 * check runs.
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState } from 'react'
import type { MomentumDb } from '../../../../db/schema'
import type { JsonSchema } from '../../../../shared/schema-validation'
import { scanDocs } from './scan'
import { addViolations, NO_VIOLATIONS, type Violations } from './violations'

/**
 * The mirrored documents of `collection` that `schema` would refuse; null when a newer check made this
 * one stale. Also what a save runs when it comes before the delayed check has answered, so a schema
 * that would refuse documents is never saved without asking.
 */
export async function checkViolations(
  db: MomentumDb,
  collection: string,
  schema: JsonSchema,
  stale: () => boolean = () => false,
): Promise<Violations | null> {
  let acc = NO_VIOLATIONS
  const done = await scanDocs(
    db,
    collection,
    (docs) => {
      acc = addViolations(acc, schema, docs)
    },
    stale,
  )
  return done ? acc : null
}

/** Typing pauses shorter than this do not start a check of every document. */
const CHECK_DELAY_MS = 250

export function useViolations(
  db: MomentumDb | null,
  collection: string,
  schema: JsonSchema,
): Violations | undefined {
  const key = JSON.stringify(schema)
  // Any write to the collection (this tab, another, the sync stream) changes the count or a revision.
  const version = useLiveQuery(async () => {
    if (!db) return undefined
    const rows = await db.docs
      .where('[collection+_updated]')
      .between([collection, ''], [collection, '\uffff'])
      .last()
    return `${await db.docs.where('collection').equals(collection).count()}:${rows?._updated ?? ''}`
  }, [db, collection])
  const [result, setResult] = useState<{ key: string; violations: Violations } | undefined>()
  useEffect(() => {
    if (!db || version === undefined) return
    let stale = false
    const timer = setTimeout(() => {
      void checkViolations(db, collection, JSON.parse(key) as JsonSchema, () => stale).then((found) => {
        if (found && !stale) setResult({ key: `${key}|${version}`, violations: found })
      })
    }, CHECK_DELAY_MS)
    return () => {
      stale = true
      clearTimeout(timer)
    }
  }, [db, collection, key, version])
  return result?.key === `${key}|${version}` ? result.violations : undefined
}
