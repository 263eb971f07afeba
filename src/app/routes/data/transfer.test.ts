/**
 * Import parsing (papaparse, delimiter detection) and CSV export (formulas neutralised, UTF-8 BOM,
 * round trip) of the Database screen (issue 11).
 */
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { MomentumDb } from '../../../db/schema'
import type { SyncDoc } from '../../../db/types'
import { csvColumns } from '../../components/csv'
import { BOM, exportCollection, toCsv } from '../../data/transfer'
import { columnTypes, parseImportText } from './import-parse'

describe('import parsing', () => {
  it('reads CSV with typed cells and drops server fields', () => {
    expect(parseImportText('_id,name,age,_rev\nc1,Ada,36,4\n', 'x.csv')).toEqual({
      format: 'csv',
      delimiter: ',',
      docs: [{ _id: 'c1', name: 'Ada', age: 36 }],
    })
  })

  it('detects the semicolon of a European spreadsheet (decimal commas inside) and a BOM', () => {
    const text = '\ufeff_id;name;price;city\r\np1;Käse;"3,50";Zürich\r\np2;"Brot; frisch";2;Köln\r\n'
    const parsed = parseImportText(text, 'export.csv')
    expect(parsed.delimiter).toBe(';')
    expect(parsed.docs).toEqual([
      { _id: 'p1', name: 'Käse', price: '3,50', city: 'Zürich' },
      { _id: 'p2', name: 'Brot; frisch', price: 2, city: 'Köln' },
    ])
    expect(parseImportText('a\tb\n1\t2\n', 'x.tsv').docs).toEqual([{ a: 1, b: 2 }])
  })

  it('reads a JSON array, one object, or one object per line; refuses anything else', () => {
    expect(parseImportText('[{"_id": 1, "a": true, "_updated": "x"}]', 'x.json').docs).toEqual([
      { _id: '1', a: true },
    ])
    expect(parseImportText('{"a": 1}', 'x.json').docs).toEqual([{ a: 1 }])
    expect(parseImportText('{"a": 1}\n{"a": 2}\n', 'x.ndjson').docs).toEqual([{ a: 1 }, { a: 2 }])
    expect(() => parseImportText('[1, 2]', 'x.json')).toThrow(/array of objects/)
    expect(() => parseImportText('{oops', 'x.json')).toThrow(/array of objects/)
  })

  it('names each column type for the preview', () => {
    expect(
      columnTypes([
        { a: 1, b: 'x', c: null },
        { a: 2, b: 3, c: true, d: [1] },
      ]),
    ).toEqual([
      { name: 'a', type: 'number' },
      { name: 'b', type: 'mixed' },
      { name: 'c', type: 'boolean' },
      { name: 'd', type: 'json' },
    ])
  })
})

describe('CSV export', () => {
  it('starts with a UTF-8 BOM and neutralises formulas at a cell start', async () => {
    const text = await toCsv(
      ['_id', 'a', 'n'],
      [
        { _id: 'x', a: '=HYPERLINK("http://evil")', n: -5 },
        { _id: 'y', a: '+1', n: 1 },
        { _id: 'z', a: '-2+3', n: 0 },
        { _id: 'w', a: '@SUM(A1)', n: 2 },
        { _id: 'v', a: 'Zoë, ok', n: 3 },
      ],
    )
    expect(text.startsWith(BOM)).toBe(true)
    expect(text.slice(1).split('\r\n')).toEqual([
      '_id,a,n',
      `x,"'=HYPERLINK(""http://evil"")",-5`,
      `y,"'+1",1`,
      `z,"'-2+3",0`,
      `w,"'@SUM(A1)",2`,
      'v,"Zoë, ok",3',
    ])
  })

  it('round-trips documents through export and import', async () => {
    const docs = [
      { _id: 'c1', name: 'Ada, Countess', age: 36, vip: true, address: { zip: '1000' }, tags: ['a'] },
      { _id: 'c2', name: 'Bob "B"', city: 'Lyon\nNorth', gone: null },
    ]
    const text = await toCsv(csvColumns(docs), docs)
    expect(parseImportText(text, 'x.csv').docs).toEqual(docs)
  })

  it('exports all, the filtered view or the selection', async () => {
    const db = new MomentumDb(`transfer-${Math.random()}`)
    await db.open()
    const doc = (id: string, city: string): SyncDoc => ({
      _id: id,
      _rev: 1,
      _created: 't',
      _updated: 't',
      _updatedBy: 'a',
      city,
    })
    await db.docs.bulkPut(
      ['a:Lyon', 'b:Paris', 'c:Lyon', 'd:Nice'].map((s) => {
        const [id, city] = s.split(':') as [string, string]
        return {
          collection: 'data/t',
          id,
          _created: 't',
          _updated: 't',
          doc: doc(id, city),
          pending: 0 as const,
        }
      }),
    )
    const rows = async (scope?: Parameters<typeof exportCollection>[4]) =>
      (await (await exportCollection(db, 'data/t', 'csv', () => {}, scope)).text())
        .trim()
        .split('\r\n')
        .slice(1)
    expect(await rows()).toEqual(['a,Lyon', 'b,Paris', 'c,Lyon', 'd,Nice'])
    expect(await rows({ kind: 'filtered', matches: (d) => d.city === 'Lyon' })).toEqual(['a,Lyon', 'c,Lyon'])
    expect(await rows({ kind: 'selected', ids: new Set(['d', 'b']) })).toEqual(['b,Paris', 'd,Nice'])
    const json = await exportCollection(db, 'data/t', 'json', () => {}, {
      kind: 'selected',
      ids: new Set(['a']),
    })
    expect(JSON.parse(await json.text())).toEqual([{ _id: 'a', city: 'Lyon' }])
    db.close()
  })
})
