/**
 * SPEC.md lives beside the repository (../shared/SPEC.md), as it does in CI; a clone elsewhere has no
 * spec, and the tests that compare the product with it are then skipped rather than failed.
 */
import fs from 'node:fs'
import path from 'node:path'

const SPEC_PATH = path.resolve(import.meta.dirname, '../../../shared/SPEC.md')

export const spec: string | null = fs.existsSync(SPEC_PATH) ? fs.readFileSync(SPEC_PATH, 'utf8') : null
