/**
 * Every relative link and #anchor in README.md and docs/, every docs/… path a code comment or a text
 * names, and every quoted section ("docs/<reader>/<page>.md "Heading"") resolves. Pages move between the reader
 * folders; this keeps a move from leaving a dead link behind. The checker is a script so it can also
 * be run by hand: `node scripts/check-doc-links.mjs`.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')

it('leaves no broken link in the docs or in a docs path named by the code', () => {
  const run = spawnSync(process.execPath, [join(root, 'scripts/check-doc-links.mjs'), root], {
    encoding: 'utf8',
  })
  const out = run.stdout.trim()
  expect(out.split('\n').at(-1)).toMatch(/^\d+ links checked, 0 broken$/)
  expect(run.status).toBe(0)
})
