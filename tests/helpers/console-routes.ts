/**
 * The console's route table for node processes that cannot run Vite's import.meta.glob (Playwright):
 * every `src/app/routes/<section>/index.tsx` manifest, found by folder as routes/sections.ts finds
 * them, through the same routeTable. src/app/routes/sections.test.ts checks both find the same set.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { routeTable, type Section } from '../../src/app/routing/section'
import type { RouteDef } from '../../src/app/routing/table'

const ROUTES_DIR = path.resolve(import.meta.dirname, '../../src/app/routes')

/** The section folders: those holding an index.tsx manifest. */
export function sectionFolders(): string[] {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter((name) => fs.existsSync(path.join(ROUTES_DIR, name, 'index.tsx')))
    .sort()
}

export async function consoleRoutes(): Promise<RouteDef[]> {
  const sections = await Promise.all(
    sectionFolders().map(
      async (name) =>
        ((await import(pathToFileURL(path.join(ROUTES_DIR, name, 'index.tsx')).href)) as { section: Section })
          .section,
    ),
  )
  return routeTable(sections)
}
