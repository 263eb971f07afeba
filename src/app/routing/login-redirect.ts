/**
 * Where the login page sends a user once logged in, read from its own URL: beside the route table so
 * the guard (AppRoutes) and the login page share it without importing each other.
 */

/** The login page's own redirect target, or '/' when it is missing or points off-site. */
export function safeRedirect(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/'
  return value
}

export function isHostedLogin(search: URLSearchParams): boolean {
  return search.get('redirect') === 'postmessage'
}
