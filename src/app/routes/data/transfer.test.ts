import { describe, expect, it } from 'vitest'
import { parseImport } from './transfer'

describe('parseImport', () => {
  it('reads CSV with typed cells and drops server fields', () => {
    expect(parseImport('_id,name,age,_rev\nc1,Ada,36,4\n', 'x.csv')).toEqual([
      { _id: 'c1', name: 'Ada', age: 36 },
    ])
  })

  it('reads a JSON array, one object, or one object per line', () => {
    expect(parseImport('[{"_id": 1, "a": true, "_updated": "x"}]', 'x.json')).toEqual([{ _id: '1', a: true }])
    expect(parseImport('{"a": 1}', 'x.json')).toEqual([{ a: 1 }])
    expect(parseImport('{"a": 1}\n{"a": 2}\n', 'x.ndjson')).toEqual([{ a: 1 }, { a: 2 }])
  })

  it('refuses JSON that is not objects', () => {
    expect(() => parseImport('[1, 2]', 'x.json')).toThrow(/array of objects/)
    expect(() => parseImport('{oops', 'x.json')).toThrow(/array of objects/)
  })
})
