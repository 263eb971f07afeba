/**
 * The baseline of the server benchmark: a bare Fastify 5 route in its own process, started the same way
 * as the real server (tsx), answering a small JSON object. Prints its URL on stdout.
 */
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
const url = await app.listen({ port: 0, host: '127.0.0.1' })
console.log(`bare fastify: ${url}`)
