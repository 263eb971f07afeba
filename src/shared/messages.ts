/**
 * Every user-facing message of SPEC.md §5 and §8 and the texts the spec leaves open, defined once
 * and imported by both halves. The definitions live in src/shared/messages/<area>.ts (add new texts
 * to the area file); this barrel re-exports them so importers keep one path, and the bundler still
 * resolves each name to its leaf module, so a page only carries the areas it uses (issue 20).
 * tests/shared/spec-strings.test.ts reads SPEC.md and checks the spec's literals still appear in it.
 */

export * from './messages/actions'
export * from './messages/ai'
export * from './messages/analytics'
export * from './messages/auth'
export * from './messages/data'
export * from './messages/delegation'
export * from './messages/forms'
export * from './messages/messaging'
export * from './messages/payments'
export * from './messages/reports'
export * from './messages/schema'
export * from './messages/server'
export * from './messages/shell'
export * from './messages/spec'
export * from './messages/storage'
export * from './messages/sync'
export * from './messages/templates'
export * from './messages/video'
