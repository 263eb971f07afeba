/**
 * Schema enforcement at the store (issue 17, docs/operating/schemas.md). The store every module is given is
 * wrapped here, so every write path — the data routes, the collection modules, /api/batch (which the
 * sync engine's outbox replays through), form submissions written straight to the store — checks a
 * document against its collection's schema before it is stored, with no route able to forget it.
 *
 * - A write to `schemas` is itself checked: the id must name a collection (schema-keys.ts) and its
 *   `schema` field must be valid JSON Schema (ajv's meta-schema), else 400 with ajv's reason.
 * - A create or put is checked as sent; a patch after merging onto the stored document (as the store
 *   will), so a patch that only fixes one field of an old, non-conforming document is refused until the
 *   whole document conforms (documents written before the schema are reported, see report.ts).
 * - A repeat of an idempotent request is not re-checked: it must replay its first answer even if the
 *   schema changed since.
 * - Within one writeMany/writeEach, later entries see the documents earlier entries produce.
 *
 * The check runs just before the store's transaction, not inside it: a concurrent patch to the same
 * document between the read and the write could merge into a document neither write checked. Writes
 * with If-Match (the console and the sync engine send it) cannot, since the store then refuses the
 * stale one with 409.
 */

import { collectionForSchemaId, SCHEMAS_COLLECTION, schemaOfDoc } from '../../shared/schema-keys'
import { type FieldErrors, hasFieldErrors, type JsonSchema } from '../../shared/schema-validation'
import { SCHEMA_TEXT } from '../../shared/texts'
import { badRequest } from '../errors'
import { mergePatch, stripMeta } from '../store/doc'
import type { Body, DocumentStore, EachOutcome, Write, WriteContext } from '../store/types'
import { checkSchema, validateOnServer } from './ajv-engine'

/** The 400 a non-conforming document gets: one message per field in `fields`. */
export function schemaRejection(fields: FieldErrors) {
  return badRequest(SCHEMA_TEXT.documentRejected(fields), { fields })
}

/** Refuses a schema document that names no collection or holds no usable JSON Schema. */
function checkSchemaDoc(id: string, body: Body): void {
  if (!collectionForSchemaId(id)) throw badRequest(SCHEMA_TEXT.schemaPathInvalid)
  const schema = body.schema
  if (schema === undefined) throw badRequest(SCHEMA_TEXT.schemaInvalid('the document needs a `schema` field'))
  const reason = checkSchema(schema)
  if (reason) throw badRequest(SCHEMA_TEXT.schemaInvalid(reason))
}

export function enforceSchemas(inner: DocumentStore): DocumentStore {
  let cache: Map<string, JsonSchema> | null = null
  let loading: Promise<Map<string, JsonSchema>> | null = null
  let generation = 0

  async function load(): Promise<Map<string, JsonSchema>> {
    if (cache) return cache
    if (!loading) {
      const started = generation
      loading = (async () => {
        const map = new Map<string, JsonSchema>()
        const all = await inner.list(SCHEMAS_COLLECTION, { limit: 100_000 })
        for (const doc of all.items) {
          const path = collectionForSchemaId(doc._id)
          const schema = schemaOfDoc(doc)
          if (path && schema !== undefined) map.set(path, schema)
        }
        // A schema committed while this list ran may be missing from it: load again next time.
        if (started === generation) cache = map
        loading = null
        return map
      })()
    }
    return loading
  }

  // Any committed schema change (on this instance, or another one's through the fan-out) invalidates.
  inner.onCommit((changes) => {
    if (changes.some((c) => c.collection === SCHEMAS_COLLECTION)) {
      generation++
      cache = null
    }
  })

  const key = (collection: string, id: string) => `${collection}\u0000${id}`

  /** Checks one write; `overlay` holds documents produced by earlier entries of the same batch. */
  async function check(w: Write, ctx: WriteContext, overlay: Map<string, Body | null>): Promise<void> {
    if (w.op === 'delete') {
      overlay.set(key(w.collection, w.id), null)
      return
    }
    const isSchemaDoc = w.collection === SCHEMAS_COLLECTION
    const schema = isSchemaDoc ? undefined : (await load()).get(w.collection)
    // Most collections have no schema: they cost one map lookup, not a read.
    if (!isSchemaDoc && schema === undefined) return
    if (ctx.idempotencyKey && (await inner.getIdempotent(ctx.idempotencyKey, ctx.user))) return
    let body: Body = stripMeta(w.body)
    if (w.op === 'patch') {
      const k = key(w.collection, w.id)
      const current = overlay.has(k) ? overlay.get(k) : await inner.get(w.collection, w.id)
      if (!current) return // the store answers 404
      body = mergePatch(stripMeta(current), body) as Body
    }
    if (w.id !== undefined) overlay.set(key(w.collection, w.id), body)
    if (schema === undefined) {
      checkSchemaDoc(w.id ?? '', body)
      return
    }
    const fields = validateOnServer(schema, body)
    if (hasFieldErrors(fields)) throw schemaRejection(fields)
  }

  return Object.assign(Object.create(inner) as DocumentStore, {
    async write(w: Write, ctx: WriteContext) {
      await check(w, ctx, new Map())
      return inner.write(w, ctx)
    },
    async writeMany(writes: Write[], ctx: WriteContext) {
      const overlay = new Map<string, Body | null>()
      // One idempotency key names the whole batch: a repeat replays without any check.
      const replay = ctx.idempotencyKey && (await inner.getIdempotent(ctx.idempotencyKey, ctx.user))
      if (!replay) for (const w of writes) await check(w, { ...ctx, idempotencyKey: undefined }, overlay)
      return inner.writeMany(writes, ctx)
    },
    async writeEach(entries: Parameters<DocumentStore['writeEach']>[0]) {
      const overlay = new Map<string, Body | null>()
      const refused = new Map<number, unknown>()
      for (const [i, e] of entries.entries()) {
        try {
          await check(e.write, e.ctx, overlay)
        } catch (error) {
          refused.set(i, error)
        }
      }
      const passed = entries.filter((_, i) => !refused.has(i))
      const outcomes = passed.length ? await inner.writeEach(passed) : []
      let next = 0
      return entries.map((_, i): EachOutcome => {
        const error = refused.get(i)
        return error !== undefined ? { ok: false, error } : outcomes[next++]!
      })
    },
  })
}
