/**
 * The BlobStore contract (src/server/storage/blob-store.ts) as one set of cases, run by
 * blob-store-conformance.test.ts against every store: the disk one in a temp dir and the S3 one against
 * s3rver. Each case gets a fresh, empty store, so cases never see each other's files; `leftovers` lists
 * what the store keeps aside (staged uploads), which must be nothing once an upload is named or dropped.
 */
import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { expect, it } from 'vitest'
import type { BlobStore } from '../../src/server/storage/blob-store'
import { STORAGE_TEXT } from '../../src/shared/texts'

export interface BlobHarness {
  store: BlobStore
  /** What the store holds aside for uploads not yet named (staged bytes). */
  leftovers(): Promise<string[]>
}

const sha = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')

async function put(store: BlobStore, path: string, data: Buffer | string) {
  return store.commit(await store.stage(Readable.from([Buffer.from(data)])), path)
}

async function read(store: BlobStore, path: string, range?: { start: number; end: number }) {
  return text(await store.read(path, range))
}

async function bytes(store: BlobStore, path: string, range?: { start: number; end: number }) {
  const chunks: Buffer[] = []
  for await (const chunk of await store.read(path, range)) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

const paths = async (store: BlobStore, path: string, recursive = false) =>
  (await store.list(path, recursive)).map((s) => `${s.path}${s.type === 'directory' ? '/' : ''}`)

const fails = (status: number, message: string) => expect.objectContaining({ status, message })

/** A small tree: a/x.txt, a/b/y.txt, a/b/empty/, top.txt. */
async function tree(store: BlobStore) {
  await store.mkdir('a')
  await store.mkdir('a/b')
  await store.mkdir('a/b/empty')
  await put(store, 'a/x.txt', 'ex')
  await put(store, 'a/b/y.txt', 'why')
  await put(store, 'top.txt', 'top')
}

export function blobStoreCases(fresh: () => Promise<BlobHarness>): void {
  it('starts as an empty root folder; a missing path has no stat', async () => {
    const { store } = await fresh()
    expect(await store.stat('')).toMatchObject({ path: '', type: 'directory', size: 0 })
    expect(await store.list('', false)).toEqual([])
    expect(await store.list('', true)).toEqual([])
    expect(await store.stat('nothing')).toBeNull()
    expect(await store.stat('no/thing')).toBeNull()
  })

  it('mkdir: a folder in an existing folder; 409 taken, 404 no parent, 400 parent a file', async () => {
    const { store } = await fresh()
    const made = await store.mkdir('docs')
    expect(made).toMatchObject({ path: 'docs', name: 'docs', type: 'directory', size: 0 })
    expect(made.modified).toBeInstanceOf(Date)
    expect(await store.stat('docs')).toMatchObject({ type: 'directory' })
    await expect(store.mkdir('docs')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await put(store, 'docs/f.txt', 'f')
    await expect(store.mkdir('docs/f.txt')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.mkdir('none/sub')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    await expect(store.mkdir('docs/f.txt/sub')).rejects.toEqual(fails(400, STORAGE_TEXT.notFolder))
    expect(await store.mkdir('docs/sub')).toMatchObject({ path: 'docs/sub', name: 'sub' })
  })

  it('stage + commit: size and SHA-256 while streaming; invisible until named; replaces a file', async () => {
    const { store, leftovers } = await fresh()
    await store.mkdir('up')
    const data = Buffer.from('hello, staged world')
    const staged = await store.stage(Readable.from([data.subarray(0, 5), data.subarray(5)]))
    expect(staged.size).toBe(data.length)
    expect(staged.sha256).toBe(sha(data))
    // Staged bytes are nowhere in the tree: not listed, not at any path.
    expect(await paths(store, '', true)).toEqual(['up/'])
    expect(await leftovers()).toHaveLength(1)
    const stat = await store.commit(staged, 'up/h.txt')
    expect(stat).toMatchObject({ path: 'up/h.txt', name: 'h.txt', type: 'file', size: data.length })
    expect(await read(store, 'up/h.txt')).toBe('hello, staged world')
    expect(await leftovers()).toEqual([])
    // A second upload of the same name replaces it whole.
    await put(store, 'up/h.txt', 'v2')
    expect(await read(store, 'up/h.txt')).toBe('v2')
    expect(await store.stat('up/h.txt')).toMatchObject({ size: 2 })
    expect(await paths(store, 'up')).toEqual(['up/h.txt'])
  })

  it('commit refuses a folder name (409), a missing parent (404), a file as parent (400)', async () => {
    const { store, leftovers } = await fresh()
    await store.mkdir('dir')
    await put(store, 'file.txt', 'f')
    const staged = await store.stage(Readable.from([Buffer.from('x')]))
    await expect(store.commit(staged, 'dir')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.commit(staged, 'none/x.txt')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    await expect(store.commit(staged, 'file.txt/x.txt')).rejects.toEqual(fails(400, STORAGE_TEXT.notFolder))
    expect(await store.stat('dir')).toMatchObject({ type: 'directory' })
    await store.discard(staged)
    expect(await leftovers()).toEqual([])
    // Discarding twice (a request's cleanup after a commit) is harmless.
    await store.discard(staged)
  })

  it('discard drops a staged upload; a source that fails mid-stream leaves nothing', async () => {
    const { store, leftovers } = await fresh()
    const staged = await store.stage(Readable.from([Buffer.from('never named')]))
    await store.discard(staged)
    expect(await leftovers()).toEqual([])
    expect(await store.list('', true)).toEqual([])
    async function* broken() {
      yield Buffer.from('half of it')
      throw new Error('connection reset')
    }
    await expect(store.stage(Readable.from(broken()))).rejects.toThrow('connection reset')
    expect(await leftovers()).toEqual([])
    expect(await store.list('', true)).toEqual([])
  })

  it('stages empty and multi-part-sized files with the right size and hash', async () => {
    const { store } = await fresh()
    const empty = await store.stage(Readable.from([]))
    expect(empty).toMatchObject({ size: 0, sha256: sha('') })
    expect(await store.commit(empty, 'empty.bin')).toMatchObject({ size: 0, type: 'file' })
    expect((await bytes(store, 'empty.bin')).length).toBe(0)
    // Over one S3 multipart part (8 MiB), sent in uneven chunks.
    const big = crypto.randomBytes(9 * 1024 * 1024 + 123)
    const chunks = []
    for (let at = 0; at < big.length; at += 700_001) chunks.push(big.subarray(at, at + 700_001))
    const staged = await store.stage(Readable.from(chunks))
    expect(staged).toMatchObject({ size: big.length, sha256: sha(big) })
    await store.commit(staged, 'big.bin')
    expect(sha(await bytes(store, 'big.bin'))).toBe(sha(big))
    const end = big.length - 1
    expect((await bytes(store, 'big.bin', { start: end - 9, end })).equals(big.subarray(end - 9))).toBe(true)
  })

  it('read: whole, one range (inclusive end), the last byte; 400 a folder, 404 missing', async () => {
    const { store } = await fresh()
    await put(store, 'abc.txt', 'abcdefghij')
    expect(await read(store, 'abc.txt')).toBe('abcdefghij')
    expect(await read(store, 'abc.txt', { start: 0, end: 0 })).toBe('a')
    expect(await read(store, 'abc.txt', { start: 2, end: 5 })).toBe('cdef')
    expect(await read(store, 'abc.txt', { start: 9, end: 9 })).toBe('j')
    await store.mkdir('dir')
    await expect(store.read('dir')).rejects.toEqual(fails(400, STORAGE_TEXT.isFolder))
    await expect(store.read('missing.txt')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
  })

  it('stat: files with size and time, folders with size 0', async () => {
    const { store } = await fresh()
    const before = Date.now()
    await put(store, 'f.txt', '12345')
    const stat = await store.stat('f.txt')
    expect(stat).toMatchObject({ path: 'f.txt', name: 'f.txt', type: 'file', size: 5 })
    // S3 keeps whole seconds.
    expect(stat!.modified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000)
    await store.mkdir('d')
    expect(await store.stat('d')).toMatchObject({ path: 'd', name: 'd', type: 'directory', size: 0 })
  })

  it('list: one folder or the whole subtree, parents before children, names in order', async () => {
    const { store } = await fresh()
    await tree(store)
    await put(store, 'a/B.txt', 'capital')
    expect(await paths(store, '')).toEqual(['a/', 'top.txt'])
    expect(await paths(store, 'a')).toEqual(['a/B.txt', 'a/b/', 'a/x.txt'])
    expect(await paths(store, '', true)).toEqual([
      'a/',
      'a/B.txt',
      'a/b/',
      'a/b/empty/',
      'a/b/y.txt',
      'a/x.txt',
      'top.txt',
    ])
    expect(await paths(store, 'a/b', true)).toEqual(['a/b/empty/', 'a/b/y.txt'])
    const [listed] = await store.list('a/b', false)
    expect(listed).toMatchObject({ path: 'a/b/empty', name: 'empty', type: 'directory', size: 0 })
    const sizes = (await store.list('a', false)).map((s) => s.size)
    expect(sizes).toEqual([7, 0, 2])
    await expect(store.list('top.txt', false)).rejects.toEqual(fails(400, STORAGE_TEXT.notFolder))
    await expect(store.list('none', true)).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
  })

  it('copy: a file, or a folder with its whole subtree; the source stays', async () => {
    const { store } = await fresh()
    await tree(store)
    await store.copy('top.txt', 'a/top copy.txt')
    expect(await read(store, 'a/top copy.txt')).toBe('top')
    await store.copy('a', 'a2')
    expect(await paths(store, 'a2', true)).toEqual([
      'a2/b/',
      'a2/b/empty/',
      'a2/b/y.txt',
      'a2/top copy.txt',
      'a2/x.txt',
    ])
    expect(await read(store, 'a2/b/y.txt')).toBe('why')
    expect(await read(store, 'a/b/y.txt')).toBe('why')
    // The copy is its own: changing it leaves the original alone.
    await put(store, 'a2/x.txt', 'changed')
    expect(await read(store, 'a/x.txt')).toBe('ex')
  })

  it('copy refuses a taken destination (409), a missing source or parent (404)', async () => {
    const { store } = await fresh()
    await tree(store)
    await expect(store.copy('top.txt', 'a/x.txt')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.copy('a/b', 'a')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.copy('nothing', 'n2')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    await expect(store.copy('top.txt', 'none/t.txt')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    await expect(store.copy('a', 'top.txt/a')).rejects.toEqual(fails(400, STORAGE_TEXT.notFolder))
    expect(await read(store, 'a/x.txt')).toBe('ex')
  })

  it('move: renames a file, moves a folder with its subtree; nothing stays behind', async () => {
    const { store } = await fresh()
    await tree(store)
    await store.move('top.txt', 'a/b/moved.txt')
    expect(await store.stat('top.txt')).toBeNull()
    expect(await read(store, 'a/b/moved.txt')).toBe('top')
    await store.mkdir('z')
    await store.move('a/b', 'z/b2')
    expect(await store.stat('a/b')).toBeNull()
    expect(await store.stat('a/b/y.txt')).toBeNull()
    expect(await paths(store, '', true)).toEqual([
      'a/',
      'a/x.txt',
      'z/',
      'z/b2/',
      'z/b2/empty/',
      'z/b2/moved.txt',
      'z/b2/y.txt',
    ])
    expect(await read(store, 'z/b2/y.txt')).toBe('why')
  })

  it('move refuses a taken destination (409), a missing source or parent (404)', async () => {
    const { store } = await fresh()
    await tree(store)
    await expect(store.move('top.txt', 'a/x.txt')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.move('a/b', 'a')).rejects.toEqual(fails(409, STORAGE_TEXT.exists))
    await expect(store.move('nothing', 'n2')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    await expect(store.move('a', 'none/a')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
    expect(await read(store, 'top.txt')).toBe('top')
    expect(await read(store, 'a/x.txt')).toBe('ex')
  })

  it('remove: a file, or a folder with everything below it; 404 missing', async () => {
    const { store } = await fresh()
    await tree(store)
    await store.remove('top.txt')
    expect(await store.stat('top.txt')).toBeNull()
    await store.remove('a/b')
    expect(await paths(store, '', true)).toEqual(['a/', 'a/x.txt'])
    await store.remove('a')
    expect(await store.list('', true)).toEqual([])
    await expect(store.remove('a')).rejects.toEqual(fails(404, STORAGE_TEXT.notFound))
  })

  it('keeps names with spaces, unicode, #, +, ? and (COPY) through copy, move and read', async () => {
    const { store } = await fresh()
    const names = ['a b (COPY).txt', 'café ünï 漢字.md', 'hash#tag+plus?.txt', "it's & 100%.csv"]
    await store.mkdir('odd ñame')
    for (const name of names) await put(store, `odd ñame/${name}`, name)
    await store.copy('odd ñame', 'copy #1')
    await store.move('copy #1', 'moved & done')
    for (const name of names) expect(await read(store, `moved & done/${name}`)).toBe(name)
    expect(await paths(store, 'moved & done')).toEqual(names.map((n) => `moved & done/${n}`).sort())
  })
}
