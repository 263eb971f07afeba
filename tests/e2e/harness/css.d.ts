// The harness imports console components whose stylesheets Vite bundles; the server tsconfig that
// type-checks tests has no Vite client types, so it learns here that a .css import is fine.
declare module '*.css'
