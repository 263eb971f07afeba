import { describe, expect, it } from 'vitest'
import { cellValue, csvColumns, csvRow, csvToDocs, parseCsv } from './csv'

describe('csv', () => {
  it('quotes only what needs quoting', () => {
    expect(csvRow(['a', 'b,c', 'say "hi"', 'two\nlines', 3, true, null, undefined])).toBe(
      'a,"b,c","say ""hi""","two\nlines",3,true,null,\r\n',
    )
    expect(csvRow([{ zip: '1000' }, ['x', 'y']])).toBe('"{""zip"":""1000""}","[""x"",""y""]"\r\n')
  })

  it('parses quoted commas, doubled quotes, line breaks, CRLF and a BOM', () => {
    const text = '\ufeff_id,name\r\n1,"Doe, Jane"\r\n2,"say ""hi"""\n3,"a\r\nb"\r\n'
    expect(parseCsv(text)).toEqual([
      ['_id', 'name'],
      ['1', 'Doe, Jane'],
      ['2', 'say "hi"'],
      ['3', 'a\r\nb'],
    ])
  })

  it('infers JSON types and keeps other text as strings', () => {
    expect(cellValue('42')).toBe(42)
    expect(cellValue('-1.5e3')).toBe(-1500)
    expect(cellValue('0123')).toBe('0123')
    expect(cellValue('true')).toBe(true)
    expect(cellValue('null')).toBe(null)
    expect(cellValue('{"a":1}')).toEqual({ a: 1 })
    expect(cellValue('{not json}')).toBe('{not json}')
    expect(cellValue('Lyon')).toBe('Lyon')
    expect(cellValue('')).toBeUndefined()
  })

  it('round-trips documents through export and import', () => {
    const docs = [
      { _id: 'c1', name: 'Ada, Countess', age: 36, vip: true, address: { zip: '1000' }, tags: ['a'] },
      { _id: 'c2', name: 'Bob "B"', city: 'Lyon\nNorth' },
    ]
    const cols = csvColumns(docs)
    expect(cols).toEqual(['_id', 'name', 'age', 'vip', 'address', 'tags', 'city'])
    const text =
      csvRow(cols) + docs.map((d) => csvRow(cols.map((c) => (d as Record<string, unknown>)[c]))).join('')
    expect(csvToDocs(text)).toEqual(docs)
  })

  it('keeps ids as strings and leaves empty cells out', () => {
    expect(csvToDocs('_id,n\n7,\n')).toEqual([{ _id: '7' }])
  })
})
