/**
 * One database per origin and user, so two accounts on one browser never see each other's mirror or
 * outbox, and switching servers never mixes data sets. The name stays readable in DevTools.
 * Here, free of Dexie and of src/db, so the console's first chunk can name the database: an offline
 * start reads its first screen before Dexie has loaded (src/app/data/first-screen.ts).
 */
export function databaseName(origin: string, user: string): string {
  const host = new URL(origin).host
  return `momentum:${host}:${encodeURIComponent(user)}`
}
