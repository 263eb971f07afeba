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
      let acc = NO_VIOLATIONS
      const parsed = JSON.parse(key) as JsonSchema
      void scanDocs(
        db,
        collection,
        (docs) => {
          acc = addViolations(acc, parsed, docs)
        },
        () => stale,
      ).then((done) => {
        if (done && !stale) setResult({ key: `${key}|${version}`, violations: acc })
      })
    }, CHECK_DELAY_MS)
    return () => {
      stale = true
      clearTimeout(timer)
    }
  }, [db, collection, key, version])
  return result?.key === `${key}|${version}` ? result.violations : undefined
}
