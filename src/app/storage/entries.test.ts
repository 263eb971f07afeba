import { describe, expect, it } from 'vitest'
import {
  allFolders,
  browserHref,
  type Entry,
  entryOfDoc,
  folderRows,
  folderTree,
  moveTargets,
  overlay,
  type PendingItem,
  previewKind,
} from './entries'

const doc = (
  path: string,
  type: 'file' | 'directory' = 'file',
  size = 10,
  modified = '2026-01-01T00:00:00Z',
) =>
  entryOfDoc({
    _id: path,
    path,
    name: path.split('/').pop(),
    type,
    size,
    modified,
    parent: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '',
  }) as Entry

const item = (id: string, op: PendingItem['op'], status = 'waiting'): PendingItem => ({
  id,
  root: 'storage',
  op,
  status,
  sent: 0,
  total: 1,
  created: Date.UTC(2026, 0, 2),
})

describe('file browser model', () => {
  const mirror = [
    doc('docs', 'directory', 0),
    doc('docs/a.txt'),
    doc('docs/sub', 'directory', 0),
    doc('docs/sub/b.png'),
    doc('z.pdf', 'file', 5),
  ]

  it('hides queued deletes and their subtree, adds ghosts for uploads and folders', () => {
    const rows = overlay(
      mirror,
      [
        item('1', { kind: 'delete', path: 'docs/sub' }),
        item('2', { kind: 'upload', folder: 'docs', name: 'new.txt', size: 3, type: 'text/plain' }),
        item('3', { kind: 'mkdir', folder: '', name: 'fresh' }),
        item('4', { kind: 'mkdir', folder: '', name: 'old' }, 'done'),
      ],
      'storage',
    )
    const paths = rows.map((r) => r.path)
    expect(paths).not.toContain('docs/sub')
    expect(paths).not.toContain('docs/sub/b.png')
    expect(paths).toContain('docs/new.txt')
    expect(paths).toContain('fresh')
    expect(paths).not.toContain('old')
    expect(rows.find((r) => r.path === 'docs/new.txt')?.pending?.status).toBe('waiting')
  })

  it('shows a queued move at its destination only', () => {
    const rows = overlay(mirror, [item('5', { kind: 'move', path: 'z.pdf', to: 'docs/z.pdf' })], 'storage')
    expect(rows.map((r) => r.path)).toEqual(expect.arrayContaining(['docs/z.pdf']))
    expect(rows.some((r) => r.path === 'z.pdf')).toBe(false)
  })

  it('lists a folder with folders first, sorted and searched', () => {
    expect(folderRows(mirror, 'docs', '', { by: 'name', reverse: false }).map((r) => r.name)).toEqual([
      'sub',
      'a.txt',
    ])
    expect(folderRows(mirror, '', '', { by: 'size', reverse: true }).map((r) => r.name)).toEqual([
      'docs',
      'z.pdf',
    ])
    expect(folderRows(mirror, 'docs', 'A.T', { by: 'name', reverse: false }).map((r) => r.name)).toEqual([
      'a.txt',
    ])
  })

  it('builds the tree and the move targets (never into itself)', () => {
    expect(
      folderTree(mirror)
        .get('docs')
        ?.map((e) => e.name),
    ).toEqual(['sub'])
    const folders = allFolders(mirror)
    expect(folders).toEqual(['', 'docs', 'docs/sub'])
    expect(moveTargets(folders, [doc('docs', 'directory', 0)])).toEqual([])
    expect(moveTargets(folders, [doc('docs/a.txt')])).toEqual(['', 'docs/sub'])
  })

  it('picks previews by type, never rendering SVG or HTML as a page', () => {
    expect(previewKind('a.svg')).toBe('svg')
    expect(previewKind('page.html')).toBe('text')
    expect(previewKind('x.PDF')).toBe('pdf')
    expect(previewKind('clip', 'video/mp4')).toBe('video')
    expect(previewKind('blob.bin')).toBe('none')
  })

  it('encodes each name of a console URL', () => {
    expect(browserHref('static', 'a b/c#d')).toBe('/static/a%20b/c%23d')
    expect(browserHref('storage', '')).toBe('/storage')
  })
})
