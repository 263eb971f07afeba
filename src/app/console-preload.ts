/**
 * A seam between the login form and Entry.tsx's loadConsole, which the form cannot import (Entry
 * renders the routes that render the form). Entry registers its loader; the form calls
 * preloadConsole() on submit, so the console's chunks download and evaluate during the login request
 * instead of after it, and the sync engine starts that much earlier (issue 20, "Initial mirror").
 * A logged-out login page still loads none of them before the user submits.
 */
let loader: (() => unknown) | null = null

export function registerConsoleLoader(load: () => unknown): void {
  loader = load
}

export function preloadConsole(): void {
  loader?.()
}
