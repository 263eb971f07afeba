/**
 * First run (issue 36 #14): `npm install` on the Node this project supports prints no EBADENGINE
 * warning. Every package the lockfile installed here (optional ones for other platforms are not) that declares an `engines.node` range must admit the
 * running Node; a dependency that needs a newer one is pinned in package.json `overrides`.
 */
import { existsSync, readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

interface LockEntry {
  version?: string
  engines?: { node?: string } | string[]
  optional?: boolean
}

describe('install', () => {
  it('installs nothing that declares a Node newer than the one it runs on', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, LockEntry>
    }
    const node = process.versions.node
    const refused: string[] = []
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      if (!path || !range || !existsSync(path)) continue
      if (!semver.satisfies(node, range, { includePrerelease: true }))
        refused.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version}: node ${range}`)
    }
    expect(refused).toEqual([])
  })
})
