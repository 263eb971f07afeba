/**
 * The "Database editor" route (SPEC §2: /data and any further path): /data/{collection} shows the
 * collection's table, /data/{collection}/{id} one document (id `new` creates one).
 */
import type { ScreenProps } from '../screens'
import { CollectionScreen } from './CollectionScreen'
import { DocumentScreen } from './DocumentScreen'
import './data.css'

export function DataEditorScreen({ params }: ScreenProps) {
  const [name = '', ...rest] = (params.rest ?? '').split('/')
  const id = rest.join('/')
  if (id) return <DocumentScreen key={`${name}/${id}`} name={name} id={id} />
  return <CollectionScreen key={name} name={name} />
}
