/** The inline "Loading…" spinner a screen shows while its chunk or its first rows arrive. */
export function Loading() {
  return (
    <div className="splash-inline" role="status">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  )
}
