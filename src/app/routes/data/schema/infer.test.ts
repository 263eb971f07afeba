import { describe, expect, it } from 'vitest'
import { hasFieldErrors, validateDocument } from '../../../../shared/schema-validation'
import { buildSchema } from './field-model'
import { ENUM_MIN_REPEAT, inferFields } from './infer'

const docs = [
  {
    _id: 'a',
    _rev: 1,
    site: 'Depot 1',
    score: 3,
    ratio: 1,
    when: '2026-01-02',
    by: 'ada@example.org',
    tags: ['x'],
    passed: true,
    city: 'Lyon',
    note: null,
  },
  {
    _id: 'b',
    _rev: 2,
    site: 'Depot 2',
    score: 5,
    ratio: 0.5,
    when: '2026-02-03',
    by: 'ben@example.org',
    tags: [],
    passed: false,
    city: 'Lyon',
    note: 'late',
  },
  {
    _id: 'c',
    _rev: 1,
    site: 'Depot 3',
    score: 4,
    ratio: 2,
    when: '2026-03-04',
    by: 'kai@example.org',
    tags: ['y', 'z'],
    passed: true,
    city: 'Osaka',
  },
  {
    _id: 'd',
    _rev: 1,
    site: 'Depot 4',
    score: 1,
    ratio: 2,
    when: '2026-04-05',
    by: 'lena@example.org',
    tags: ['x'],
    passed: true,
    city: 'Osaka',
    extra: { a: 1 },
  },
]

describe('inferring a schema from the documents', () => {
  const fields = inferFields(docs)
  const by = Object.fromEntries(fields.map((f) => [f.name, f]))

  it('proposes each field with the type all its values share, required when every document has it', () => {
    expect(fields.map((f) => f.name)).toEqual([
      'site',
      'score',
      'ratio',
      'when',
      'by',
      'tags',
      'passed',
      'city',
      'note',
      'extra',
    ])
    expect(by.site).toMatchObject({ type: 'string', required: true, format: '', enumText: '' })
    expect(by.score).toMatchObject({ type: 'integer', required: true, min: '', max: '' })
    expect(by.ratio).toMatchObject({ type: 'number' })
    expect(by.when).toMatchObject({ type: 'string', format: 'date' })
    expect(by.by).toMatchObject({ type: 'string', format: 'email' })
    expect(by.tags).toMatchObject({ type: 'array', extra: { items: { type: 'string' } } })
    expect(by.passed).toMatchObject({ type: 'boolean', required: true })
    // Sometimes null, sometimes missing: open type, not required.
    expect(by.note).toMatchObject({ type: '', required: false })
    expect(by.extra).toMatchObject({ type: 'object', required: false })
  })

  it('proposes allowed values only for a few values that repeat', () => {
    expect(by.city?.enumText).toBe('') // 2 values over 4 documents: not often enough
    const many = Array.from({ length: 2 * ENUM_MIN_REPEAT }, (_, i) => ({
      _id: String(i),
      city: i % 2 ? 'Lyon' : 'Osaka',
    }))
    expect(inferFields(many)[0]).toMatchObject({ enumText: 'Lyon\nOsaka' })
  })

  it('infers a schema every document it came from matches', () => {
    const { schema, problems } = buildSchema({ fields, strict: true }, {})
    expect(problems).toEqual({})
    for (const doc of docs) expect(hasFieldErrors(validateDocument(schema, doc)), doc._id).toBe(false)
  })

  it('leaves a date that is not a real date as text', () => {
    expect(inferFields([{ d: '2026-13-45' }])[0]).toMatchObject({ type: 'string', format: '' })
  })
})
