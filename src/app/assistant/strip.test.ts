import { describe, expect, it } from 'vitest'
import { stripBlocks, viewingPath, visibleMessages } from './strip'

describe('assistant text (SPEC §5)', () => {
  it('strips think and context blocks, including an unclosed think', () => {
    expect(stripBlocks('<think>hmm\nmore</think>Hello')).toBe('Hello')
    expect(stripBlocks('Q?\n<context>\nViewing: /users\n</context>')).toBe('Q?')
    expect(stripBlocks('A <THINK>x</THINK>B')).toBe('A B')
    expect(stripBlocks('Answer<think>cut off mid-')).toBe('Answer')
  })
  it('drops messages left empty', () => {
    expect(
      visibleMessages([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '<think>only thoughts</think>' },
        { role: 'assistant', content: '  ' },
        { role: 'assistant', content: '<think>x</think>Hello' },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello' },
    ])
  })
  it('reports the path without the /ui prefix', () => {
    expect(viewingPath('/ui/users/alice')).toBe('/users/alice')
    expect(viewingPath('/ui')).toBe('/')
    expect(viewingPath('/uix/a')).toBe('/uix/a')
    expect(viewingPath('/data/contacts')).toBe('/data/contacts')
  })
})
