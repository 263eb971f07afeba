/** A PDF's text as pdftotext (poppler-utils, installed by scripts/setup-browser.mjs) reads it, in layout. */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-text-'))
  const file = path.join(dir, 'out.pdf')
  fs.writeFileSync(file, bytes)
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
