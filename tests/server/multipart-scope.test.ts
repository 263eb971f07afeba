/**
 * Multipart bodies are parsed only by the routes that take uploads (storage, a user's picture): the
 * parser's hooks ran on every request and cost a read a tenth of its time (issue 20). Elsewhere a
 * multipart body is refused with the 415 every other unknown body type gets, and nothing is written.
 */
import { expect, it } from 'vitest'
import { SECURITY_TEXT } from '../../src/shared/texts'
import { suiteServer } from '../helpers/suite-server'

const server = suiteServer()

const form = () => {
  const data = new FormData()
  data.append('file', new Blob(['hello']), 'note.txt')
  return data
}

it('refuses a multipart body on a route that takes no upload, and writes nothing', async () => {
  const head = await server.services.store.headSeq()
  const res = await server.api('/api/data/notes', { method: 'POST', body: form(), token: server.admin })
  expect(res.status).toBe(415)
  expect(res.body).toEqual({ error: 'unsupported_media_type', message: SECURITY_TEXT.unsupportedMediaType })
  expect(await server.services.store.headSeq()).toBe(head)
})

it('still takes uploads into storage', async () => {
  expect(
    (await server.api('/api/storage', { json: { directory: 'inbox' }, token: server.admin })).status,
  ).toBe(201)
  const res = await server.api('/api/storage/inbox', { method: 'POST', body: form(), token: server.admin })
  expect(res.status, res.text).toBe(201)
  const listed = await server.api('/api/storage/inbox', { token: server.admin })
  expect(JSON.stringify(listed.body)).toContain('note.txt')
})
