/**
 * Every user-facing message of SPEC.md §5 and §8 and the texts the spec leaves open, defined once
 * and imported by both halves. The definitions live in src/shared/texts/<area>.ts (add new texts
 * to the area file); this barrel re-exports them so importers keep one path, and the bundler still
 * resolves each name to its leaf module, so a page only carries the areas it uses (issue 20).
 * tests/shared/spec-strings.test.ts reads SPEC.md and checks the spec's literals still appear in it.
 */

export * from './texts/actions'
export * from './texts/ai'
export * from './texts/analytics'
export * from './texts/auth'
export * from './texts/data'
export * from './texts/delegation'
export * from './texts/forms'
export * from './texts/messaging'
export * from './texts/payments'
export * from './texts/reports'
export * from './texts/schema'
export * from './texts/server'
export * from './texts/shell'
export * from './texts/spec'
export * from './texts/storage'
export * from './texts/sync'
export * from './texts/templates'
export * from './texts/video'
