/**
 * Profiling aid (not part of `npm run bench`): the real server with --cpu-prof, the bench's 10,000
 * documents, and one autocannon target (read | write | pull) for a few seconds. Prints the functions
 * with the most self time. Usage: npx tsx bench/lib/profile-server.ts read 8
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { docId } from './docs'
import { startServer } from './server'

const [target = 'read', secs = '8'] = process.argv.slice(2)
const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'momentum-cpuprof-'))
const server = await startServer({
  collections: { bench: 10_000 },
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
})
const { url } = server
const token = await server.login()
const auth = { authorization: `Bearer ${token}` }
const randomDoc = () => docId(1 + Math.floor(Math.random() * 10_000))
let n = 0
const opts: autocannon.Options =
  target === 'read'
    ? {
        url,
        headers: auth,
        requests: [
          { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/data/bench/${randomDoc()}` }) },
        ],
      }
    : target === 'write'
      ? {
          url,
          requests: [
            {
              method: 'PATCH',
              setupRequest: (r) => ({
                ...r,
                path: `/api/data/bench/doc-${String(1 + (n % 10000)).padStart(6, '0')}`,
                headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `p-${++n}` },
                body: JSON.stringify({ score: n % 100 }),
              }),
            },
          ],
        }
      : { url: `${url}/api/sync?cursor=0&limit=500`, headers: auth }
const r = await autocannon({ connections: 10, duration: Number(secs), ...opts })
console.log(`${target}: ${r.requests.average} req/s, p99 ${r.latency.p99} ms, non2xx ${r.non2xx}`)
// A graceful stop: node writes the profile as the server exits.
await server.stop()
const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!
const prof = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>
  samples: number[]
  timeDeltas: number[]
  endTime: number
  startTime: number
}
// Only the load window: the last `secs` seconds before the shutdown, less half a second each side.
const times: number[] = []
let t = prof.startTime
for (const d of prof.timeDeltas) {
  t += d
  times.push(t)
}
const from = prof.endTime - (Number(secs) - 0.5) * 1e6
const to = prof.endTime - 0.5e6
const samples = prof.samples.filter((_, i) => times[i]! >= from && times[i]! <= to)
const counts = new Map<number, number>()
for (const s of samples) counts.set(s, (counts.get(s) ?? 0) + 1)
const self = new Map<string, number>()
for (const node of prof.nodes) {
  const c = counts.get(node.id) ?? 0
  const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/.*\/work\/main\//, '')}:${node.callFrame.lineNumber}`
  self.set(key, (self.get(key) ?? 0) + c)
}
const total = samples.length
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((v / total) * 100).toFixed(1)}%  ${k}`)
console.log(`profile: ${path.join(profDir, file)}`)
