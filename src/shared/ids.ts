/**
 * Names the API accepts for document ids, data collections and log channels. Checked by the server on
 * every route and by the console before it queues a write, so a bad name fails at once, not on replay.
 * They exclude `/`, `\`, `..` and control characters, so no id can climb out of a path or a URL segment.
 */
const ID = /^[A-Za-z0-9_.@+-]{1,128}$/
const COLLECTION = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id) && id !== '.' && id !== '..'
}

export function isValidCollectionName(name: unknown): name is string {
  return typeof name === 'string' && COLLECTION.test(name)
}

/**
 * A collection as the API paths name it: one name (`users`, `settings`) or a family and a name
 * (`data/contacts`, `logs/client`), each part a valid collection name. The sync engine checks a write's
 * target with it before queueing, with the same rule the server applies to each part.
 */
export function isValidCollectionPath(path: unknown): path is string {
  if (typeof path !== 'string') return false
  const parts = path.split('/')
  return parts.length <= 2 && parts.every(isValidCollectionName)
}
