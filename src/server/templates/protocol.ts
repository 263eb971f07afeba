/**
 * Messages between the template renderer (pool.ts, main thread) and its worker (render-worker.ts).
 * The worker has no store: it asks the main thread for each layout and partial by name, so lookups
 * see the templates collection as it is now and the caller's read permissions apply to them.
 */

/** Where Liquid looks a name up: `{% layout %}` in layouts, `{% render %}`/`{% include %}` in partials. */
export type LookupDir = 'layout' | 'partial'

export interface JobPart {
  field: string
  source: string
  /** HTML-escape `{{ }}` output (html parts); text parts are rendered as they are. */
  html: boolean
  /** Inline the CSS of `<style>` blocks into style attributes (email HTML) with juice. */
  inlineCss?: boolean
}

/** 'check' only parses (on save); 'render' parses and renders with `data`. */
export interface Job {
  type: 'job'
  id: number
  op: 'check' | 'render'
  parts: JobPart[]
  data: Record<string, unknown>
}

export interface LookupReply {
  type: 'file'
  request: number
  source: string | null
}

export type ToWorker = Job | LookupReply

/** Why a job failed; pool.ts adds 'time' and 'memory' when it has to stop the worker itself. */
/** 'cycle': a limit stopped a render whose partials or layouts include each other (detail: the path). */
export type FailureKind = 'syntax' | 'missing' | 'length' | 'time' | 'memory' | 'render' | 'cycle'

export interface Failure {
  kind: FailureKind
  detail: string
  part?: string
  /** `layout/name` or `partial/name` when the error is inside a referenced template. */
  file?: string
  line?: number
  column?: number
}

export type JobResult = { ok: true; parts: Record<string, string> } | { ok: false; failure: Failure }

export type FromWorker =
  | { type: 'ready' }
  | { type: 'lookup'; request: number; dir: LookupDir; name: string }
  | ({ type: 'done'; id: number } & JobResult)
