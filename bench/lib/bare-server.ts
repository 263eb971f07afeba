/**
 * The baseline of the server benchmark: a bare Fastify 5 route in its own process, started the same way
 * as the real server (tsx), answering a small JSON object. Prints its URL on stdout.
 *
 * Also the storage benchmark's upload baseline: POST /upload streams the body to a temp file (the
 * real server writes uploads to disk too) and answers its size. Any origin may call it (the console
 * page posts the same Blob here that it uploads with tus); no Content-Type keeps it a simple CORS
 * request, without a preflight.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))

// Bodies pass through unparsed, whatever their type (or none): the route streams them itself.
app.removeAllContentTypeParsers()
app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined))
app.post('/upload', async (req, reply) => {
  const file = path.join(os.tmpdir(), `bare-upload-${crypto.randomUUID()}`)
  try {
    await pipeline(req.raw, fs.createWriteStream(file))
    const bytes = fs.statSync(file).size
    return reply.header('access-control-allow-origin', '*').send({ bytes })
  } finally {
    fs.rmSync(file, { force: true })
  }
})

const url = await app.listen({ port: 0, host: '127.0.0.1' })
console.log(`bare fastify: ${url}`)
