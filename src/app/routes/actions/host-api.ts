/**
 * What a script can call (docs/operating/actions.md "What a script sees"), as CodeMirror completions: typing
 * `db.` offers get/list/create/update/delete with their arguments, a bare word offers input, db,
 * fetch and log. One list, so the editor's hints and the docs name the same things.
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete'

const GLOBALS: Completion[] = [
  {
    label: 'input',
    type: 'variable',
    detail: 'trigger input',
    info: 'HTTP {method, query, headers, body}; CRON {schedule}; EVENT {event}; debug: the given input',
  },
  {
    label: 'db',
    type: 'namespace',
    detail: 'database',
    info: 'Database collections with the permissions of the user the action runs as',
  },
  {
    label: 'fetch',
    type: 'function',
    detail: '(url, {method?, headers?, body?})',
    info: 'Public http(s) hosts only; resolves with {status, ok, headers, text(), json()}',
  },
  {
    label: 'log',
    type: 'function',
    detail: '(...values)',
    info: 'One line per call in the run record (200 lines kept)',
  },
]

const DB: Completion[] = [
  {
    label: 'get',
    type: 'method',
    detail: '(collection, id)',
    apply: 'get(',
    info: 'Promise of one document',
  },
  {
    label: 'list',
    type: 'method',
    detail: '(collection, {filter?, limit?})',
    apply: 'list(',
    info: 'Promise of {items, …}',
  },
  {
    label: 'create',
    type: 'method',
    detail: '(collection, doc)',
    apply: 'create(',
    info: 'Promise of the stored document (a dry run in debug)',
  },
  {
    label: 'update',
    type: 'method',
    detail: '(collection, id, patch)',
    apply: 'update(',
    info: 'JSON merge patch; promise of the document',
  },
  {
    label: 'delete',
    type: 'method',
    detail: '(collection, id)',
    apply: 'delete(',
    info: 'Promise; a dry run in debug',
  },
]

/** The completion source for the script editor. */
export function hostCompletions(context: CompletionContext): CompletionResult | null {
  const member = context.matchBefore(/\bdb\.\w*/)
  if (member) return { from: member.from + 3, options: DB, validFor: /^\w*$/ }
  const word = context.matchBefore(/\w+/)
  if (!word && !context.explicit) return null
  // Not after a dot: `foo.log` is someone else's log.
  const from = word?.from ?? context.pos
  if (from > 0 && context.state.sliceDoc(from - 1, from) === '.') return null
  return { from, options: GLOBALS, validFor: /^\w*$/ }
}

/** The names a script may use beyond the language itself (for docs and tests). */
export const HOST_NAMES = [...GLOBALS.map((c) => c.label), ...DB.map((c) => `db.${c.label}`)]
