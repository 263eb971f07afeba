/**
 * File and photo fields of forms (issue 17, src/shared/forms-files.ts) against the real server: the
 * field's settings are checked on save and a link form refuses one (a logged-out filler cannot upload);
 * opening a file form makes its storage folder; a submission's file answer must be the storage path
 * of this submission's own file, present, within the field's size and of an accepted type.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  FORM_FILE_ACCEPT_MAX,
  FORM_FILE_MAX_MB,
  formFilePath,
  submissionFolder,
} from '../../src/shared/forms-files'
import { FORM_FILES_TEXT, FORMS_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const photo = { name: 'photo', label: 'Photo', type: 'file', accept: 'image/*', capture: true, maxMB: 1 }
const form = {
  _id: 'damage',
  title: 'Damage report',
  target: 'data/damage',
  fill: 'group',
  group: 'field',
  fields: [{ name: 'site', label: 'Site', type: 'text', required: true }, photo],
}

let seq = 0
const nextId = () => `sub-${Date.now().toString(36)}-${seq++}`

const save = (body: Record<string, unknown>) => server.api('/api/forms', { json: body, token: server.admin })
const submit = (id: string, answers: Record<string, unknown>) =>
  server.api(`/api/forms/${form._id}/submissions`, { json: { _id: id, answers }, token: server.admin })

/** Uploads bytes as the storage API does for the console's queue: the submission's folder, then the file. */
async function uploadFor(id: string, fileName: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const folder = submissionFolder(form._id, id)
  const made = await server.api(`/api/storage/${folder}`, { json: { directory: true }, token: server.admin })
  expect(made.status, made.text).toBe(201)
  const path = formFilePath(form._id, id, 'photo', fileName)
  const data = new FormData()
  data.append('file', new Blob([bytes]), path.slice(folder.length + 1))
  const res = await server.api(`/api/storage/${folder}`, { method: 'POST', body: data, token: server.admin })
  expect(res.status, res.text).toBe(201)
  return path
}

const server = suiteServer()
beforeAll(async () => {
  const res = await save(form)
  expect(res.status, res.text).toBe(201)
})

describe('a file field in a form document', () => {
  it('refuses a file field on a link form, bad settings, and a condition on a file', async () => {
    const bad = [
      [{ ...form, _id: 'ff1', fill: 'link', group: undefined }, FORM_FILES_TEXT.linkForm],
      [
        { ...form, _id: 'ff2', fields: [{ ...photo, maxMB: 0 }] },
        FORM_FILES_TEXT.maxInvalid('Photo', FORM_FILE_MAX_MB),
      ],
      [
        { ...form, _id: 'ff3', fields: [{ ...photo, maxMB: 1000 }] },
        FORM_FILES_TEXT.maxInvalid('Photo', FORM_FILE_MAX_MB),
      ],
      [
        { ...form, _id: 'ff4', fields: [{ ...photo, accept: 'x'.repeat(300) }] },
        FORM_FILES_TEXT.acceptInvalid('Photo', FORM_FILE_ACCEPT_MAX),
      ],
      [
        {
          ...form,
          _id: 'ff5',
          fields: [
            photo,
            { name: 'note', label: 'Note', type: 'text', showIf: { field: 'photo', equals: 'a' } },
          ],
        },
        FORM_FILES_TEXT.conditionOnFile('Note'),
      ],
    ] as const
    for (const [body, message] of bad) {
      const res = await save(body as Record<string, unknown>)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body).toMatchObject({ message })
    }
    // Turning an existing group form into a link form is refused the same way.
    const patched = await server.api(`/api/forms/${form._id}`, {
      method: 'PATCH',
      json: { fill: 'link' },
      token: server.admin,
    })
    expect(patched.status).toBe(400)
    expect(patched.body).toMatchObject({ message: FORM_FILES_TEXT.linkForm })
  })

  it('opening the form makes its storage folder, where fillers put their files', async () => {
    const fill = await server.api(`/api/forms/${form._id}/fill`, { token: server.admin })
    expect(fill.status).toBe(200)
    expect((fill.body as { fields: unknown[] }).fields).toContainEqual(photo)
    const folder = await server.api(`/api/storage/forms/${form._id}?meta=true`, { token: server.admin })
    expect(folder.status).toBe(200)
    expect(folder.body).toMatchObject({ type: 'directory', path: `forms/${form._id}` })
  })
})

describe('a submission with a file', () => {
  it("stores the file's storage path as the answer once the file is there", async () => {
    const id = nextId()
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])
    const path = await uploadFor(id, 'site 1.png', bytes)
    expect(path).toBe(`forms/${form._id}/${id}/photo-site 1.png`)
    const res = await submit(id, { site: 'North', photo: path })
    expect(res.status, res.text).toBe(201)
    const doc = await server.api(`/api/data/damage/${id}`, { token: server.admin })
    expect(doc.body).toMatchObject({ site: 'North', photo: path, _form: form._id })
    const file = await fetch(`${server.url}/api/storage/${encodeURI(path)}`, {
      headers: { authorization: `Bearer ${server.admin}` },
    })
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes)
  })

  it('refuses a path outside the submission, a file not uploaded, too large or of another type', async () => {
    const other = nextId()
    const otherPath = await uploadFor(other, 'a.png', new Uint8Array([1, 2, 3]))
    const cases: [string, Record<string, unknown>, string][] = []
    // Another submission's file, and a path that climbs out of the folder.
    let id = nextId()
    cases.push([id, { site: 'A', photo: otherPath }, FORM_FILES_TEXT.pathInvalid('Photo')])
    id = nextId()
    cases.push([
      id,
      { site: 'A', photo: `forms/${form._id}/${id}/photo-../../x.png` },
      FORM_FILES_TEXT.pathInvalid('Photo'),
    ])
    id = nextId()
    cases.push([
      id,
      { site: 'A', photo: formFilePath(form._id, id, 'photo', 'never.png') },
      FORM_FILES_TEXT.missing('Photo'),
    ])
    id = nextId()
    const big = await uploadFor(id, 'big.png', new Uint8Array(1024 * 1024 + 1))
    cases.push([id, { site: 'A', photo: big }, FORM_FILES_TEXT.tooLarge('Photo', 1024 * 1024 + 1, 1)])
    id = nextId()
    const text = await uploadFor(id, 'notes.txt', new TextEncoder().encode('hello'))
    cases.push([
      id,
      { site: 'A', photo: text },
      FORM_FILES_TEXT.wrongType('Photo', 'photo-notes.txt', 'image/*'),
    ])
    for (const [sub, answers, message] of cases) {
      const res = await submit(sub, answers)
      expect(res.status, String(answers.photo)).toBe(400)
      expect(res.body).toMatchObject({ message: FORMS_TEXT.answersInvalid(1), fields: { photo: message } })
    }
    const stored = await server.api('/api/data/damage', { token: server.admin })
    expect((stored.body as { _id: string }[]).map((d) => d._id)).not.toContain(cases[0]![0])
  })

  it('accepts a submission without the optional file', async () => {
    const res = await submit(nextId(), { site: 'No photo' })
    expect(res.status, res.text).toBe(201)
  })
})
