// `node scripts/check-doc-links.mjs`: checks every relative markdown link (and #anchor) in README.md and docs/**, and every docs/…md path
// mentioned in src/, tests/, scripts/, .ci, bench/.
// Docs move between reader folders (using/, operating/, contributing/); a moved page must not leave a
// dead link behind, in the docs or in a code comment that sends a reader there.

import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(process.argv[2] ?? process.cwd())
const walk = (d) =>
  fs
    .readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
const mdFiles = [
  path.join(root, 'README.md'),
  ...walk(path.join(root, 'docs')).filter((f) => f.endsWith('.md')),
]
const slug = (h) =>
  h
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
const anchorsCache = new Map()
function anchors(file) {
  if (anchorsCache.has(file)) return anchorsCache.get(file)
  const set = new Set()
  const seen = new Map()
  let fence = false
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence
    const m = !fence && /^#{1,6}\s+(.*)$/.exec(line)
    if (m) {
      let s = slug(m[1])
      const n = seen.get(s) ?? 0
      seen.set(s, n + 1)
      if (n) s += `-${n}`
      set.add(s)
    }
  }
  anchorsCache.set(file, set)
  return set
}
const broken = []
let count = 0
for (const file of mdFiles) {
  let fence = false
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.startsWith('```')) {
        fence = !fence
        return
      }
      if (fence) return
      const noCode = line.replace(/`[^`]*`/g, '')
      for (const m of noCode.matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1]
        if (/^[a-z]+:/i.test(href)) continue
        count++
        const [p, hash] = href.split('#')
        const target = p ? path.resolve(path.dirname(file), p) : file
        if (!fs.existsSync(target)) {
          broken.push(`${path.relative(root, file)}:${i + 1} ${href} (no file)`)
          continue
        }
        if (hash && target.endsWith('.md') && !anchors(target).has(hash))
          broken.push(`${path.relative(root, file)}:${i + 1} ${href} (no anchor)`)
      }
      // bare docs/… paths in prose
      for (const m of noCode.matchAll(/(?<![\w/.(])docs\/[a-z-]+\/[a-z0-9-]+\.md/g)) {
        count++
        if (!fs.existsSync(path.join(root, m[0])))
          broken.push(`${path.relative(root, file)}:${i + 1} ${m[0]} (no file, prose)`)
      }
    })
}
// docs paths in code (also inside backticks in markdown)
const out = execSync(
  `grep -rnoE "docs/[a-z-]+/[a-z0-9-]+\\.md" src tests scripts .ci bench README.md docs || true`,
  { cwd: root, encoding: 'utf8' },
)
for (const line of out.split('\n').filter(Boolean)) {
  const [file, no, p] = line.split(':')
  if (file.startsWith('docs/') && !/^docs\/(using|operating|contributing|decisions)\//.test(p)) continue
  count++
  if (!fs.existsSync(path.join(root, p))) broken.push(`${file}:${no} ${p} (no file, code/prose path)`)
}

// "Section" references: docs/<reader>/<page>.md "Heading" (prose and code comments): the heading must exist there
function headings(file) {
  let fence = false
  const hs = []
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence
    const m = !fence && /^#{1,6}\s+(.*)$/.exec(line)
    if (m) hs.push(m[1].toLowerCase())
    else if (!fence) for (const b of line.matchAll(/\*\*([^*]+)\*\*/g)) hs.push(b[1].toLowerCase())
  }
  return hs
}
const srcFiles = execSync('git ls-files src tests scripts bench .ci README.md docs', {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs|js|md)$/.test(f))
for (const rel of srcFiles) {
  const file = path.join(root, rel)
  if (!fs.existsSync(file)) continue
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/([\w./-]+\.md)(?:#[\w-]+)?\)?,?\s+"([^"]+)"/g)) {
        const p = m[1]
        const target = p.startsWith('docs/') ? path.join(root, p) : path.resolve(path.dirname(file), p)
        if (!fs.existsSync(target) || !target.includes(`${path.sep}docs${path.sep}`)) continue
        count++
        if (line.slice(m.index + m[0].length).startsWith(']')) continue // the text of a checked link
        const norm = (s) => s.toLowerCase().replace(/["']/g, '')
        const want = norm(m[2])
        if (!headings(target).some((h) => norm(h).includes(want)))
          broken.push(`${rel}:${i + 1} ${p} "${m[2]}" (no such section)`)
      }
    })
}
console.log(broken.join('\n'))
console.log(`${count} links checked, ${broken.length} broken`)
process.exit(broken.length ? 1 : 0)
