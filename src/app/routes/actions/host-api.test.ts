import { CompletionContext } from '@codemirror/autocomplete'
import { EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { HOST_NAMES, hostCompletions } from './host-api'

const complete = (text: string, explicit = false) => {
  const state = EditorState.create({ doc: text })
  const result = hostCompletions(new CompletionContext(state, text.length, explicit))
  return result?.options.map((o) => o.label) ?? null
}

describe('host API completion', () => {
  it('offers db methods after `db.`, the globals for a word, nothing after another object', () => {
    expect(complete('const x = await db.')).toEqual(['get', 'list', 'create', 'update', 'delete'])
    expect(complete('lo')).toEqual(['input', 'db', 'fetch', 'log'])
    expect(complete('console.lo')).toBeNull()
    expect(complete('', true)).toContain('fetch')
  })

  it('names what docs/operating/actions.md lists', () => {
    expect(HOST_NAMES).toEqual([
      'input',
      'db',
      'fetch',
      'log',
      'db.get',
      'db.list',
      'db.create',
      'db.update',
      'db.delete',
    ])
  })
})
