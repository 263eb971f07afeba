/**
 * The worker thread that parses and renders Liquid templates written by users (docs/operating/templates.md).
 * It runs apart from the server's event loop so that pool.ts can stop a runaway render for real with
 * `worker.terminate()`: LiquidJS's parse/render/memory limits are checked cooperatively, between
 * tags, and a single filter call on a huge string is not interrupted by them.
 *
 * Engines are configured for untrusted authors: `{{ }}` output is HTML-escaped in html parts, only
 * own properties of the data are readable (no `constructor`, `__proto__`, methods), unknown filters
 * are errors, and layouts and partials come only from the templates collection (a custom fs that asks
 * the main thread; there is no file system access at all).
 *
 * Keep the imports small: the worker is started through tsx and its start-up is on the first render.
 */
import { parentPort, workerData } from 'node:worker_threads'
import juice from 'juice'
import { type FS, Liquid, type LiquidOptions } from 'liquidjs'
import { referenceCycle } from './cycle'
import type { Failure, FromWorker, Job, JobPart, LookupDir, ToWorker } from './protocol'

interface Limits {
  parseLimit: number
  renderLimit: number
  memoryLimit: number
}

const port = parentPort
if (!port) throw new Error('render-worker.ts runs as a worker thread')
const limits = workerData as Limits

const send = (message: FromWorker) => port.postMessage(message)

/** Lookups of the job running now, by `dir/name`; one job runs at a time in a worker. */
let cache = new Map<string, Promise<string | null>>()
/** The same lookups once answered, for the reference-cycle check after a limit stopped a render. */
let settled = new Map<string, string | null>()
const waiting = new Map<number, (source: string | null) => void>()
let nextRequest = 1

function lookup(file: string): Promise<string | null> {
  let found = cache.get(file)
  if (!found) {
    const slash = file.indexOf('/')
    const dir = file.slice(0, slash) as LookupDir
    const name = file.slice(slash + 1)
    if (dir !== 'layout' && dir !== 'partial') return Promise.resolve(null)
    found = new Promise((resolve) => {
      const request = nextRequest++
      waiting.set(request, (source) => {
        settled.set(file, source)
        resolve(source)
      })
      send({ type: 'lookup', request, dir, name })
    })
    cache.set(file, found)
  }
  return found
}

class MissingTemplate extends Error {}

const collectionFs: FS = {
  resolve: (dir, file) => `${dir}/${file}`,
  exists: async (file) => (await lookup(file)) !== null,
  readFile: async (file) => {
    const source = await lookup(file)
    if (source === null) throw new MissingTemplate(file)
    return source
  },
  existsSync: () => false,
  readFileSync: () => {
    throw new Error('templates render asynchronously')
  },
  contains: async () => true,
  containsSync: () => true,
  dirname: () => '',
  sep: '/',
}

const common: LiquidOptions = {
  fs: collectionFs,
  root: [],
  layouts: ['layout'],
  partials: ['partial'],
  relativeReference: false,
  ownPropertyOnly: true,
  strictFilters: true,
  cache: false,
  ...limits,
}
const htmlEngine = new Liquid({ ...common, outputEscape: 'escape' })
const textEngine = new Liquid(common)

async function runPart(job: Job, part: JobPart): Promise<string> {
  const engine = part.html ? htmlEngine : textEngine
  const template = engine.parse(part.source)
  if (job.op === 'check') return ''
  const out = await engine.render(template, job.data)
  return part.inlineCss ? juice(out) : out
}

interface LiquidLike extends Error {
  token?: { file?: string; getPosition?: () => number[] }
  originalError?: Error
}

/** The sources this job read, for the reference-cycle check after a limit stopped a render. */
function readSources(): Map<string, string> {
  const sources = new Map<string, string>()
  for (const [file, found] of settled) if (found !== null) sources.set(file, found)
  return sources
}

/** Turns what LiquidJS threw into a Failure the main thread maps to 400 or 422. */
function failure(error: unknown, part: string, source = ''): Failure {
  const e = error as LiquidLike
  const original = e.originalError ?? e
  const detail = String(original?.message ?? error).replace(/, line:\d+, col:\d+$/, '')
  const position = e.token?.getPosition?.()
  const where = {
    part,
    ...(e.token?.file ? { file: e.token.file } : {}),
    ...(position ? { line: position[0], column: position[1] } : {}),
  }
  if (original instanceof MissingTemplate) return { kind: 'missing', detail, part, file: original.message }
  const notFound = /^ENOENT: Failed to lookup "(.*)" in "(layout|partial)/.exec(detail)
  if (notFound) return { kind: 'missing', detail, part, file: `${notFound[2]}/${notFound[1]}` }
  if (/parse length limit exceeded/.test(detail)) return { kind: 'length', detail, part }
  const limit = /render limit exceeded/.test(detail)
    ? 'time'
    : /memory alloc limit exceeded/.test(detail)
      ? 'memory'
      : null
  if (limit) {
    const cycle = referenceCycle(source, readSources())
    return cycle ? { kind: 'cycle', detail: cycle, part } : { kind: limit, detail, ...where }
  }
  if (e.name === 'TokenizationError' || e.name === 'ParseError') return { kind: 'syntax', detail, ...where }
  return { kind: 'render', detail, ...where }
}

async function run(job: Job): Promise<void> {
  cache = new Map()
  settled = new Map()
  const parts: Record<string, string> = {}
  for (const part of job.parts) {
    try {
      parts[part.field] = await runPart(job, part)
    } catch (error) {
      send({ type: 'done', id: job.id, ok: false, failure: failure(error, part.field, part.source) })
      return
    }
  }
  send({ type: 'done', id: job.id, ok: true, parts })
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'file') {
    waiting.get(message.request)?.(message.source)
    waiting.delete(message.request)
    return
  }
  void run(message)
})
send({ type: 'ready' })
