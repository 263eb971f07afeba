/**
 * The "Database editor" route (SPEC §2: /data and any further path): /data/{collection} shows the
 * collection's table, /data/{collection}/{id} one document (id `new` creates one), and
 * /data/{collection}/~schema the collection's schema editor (`~` is in no document id).
 */
import { useEffect } from 'react'
import type { ScreenProps } from '../../routing/table'
import { CollectionScreen } from './CollectionScreen'
import './data.css'
import { Document, Schema } from './entries'
import { SCHEMA_SEGMENT } from './schema/href'

export function DataEditorScreen({ params }: ScreenProps) {
  const [name = '', ...rest] = (params.rest ?? '').split('/')
  const id = rest.join('/')
  // A collection's start path does not wait for the document screen's chunk (index.tsx Document): it is
  // fetched once the table is up, so the first row opened renders it without suspending.
  useEffect(() => {
    if (id) return
    const timer = setTimeout(() => void Document.preload().catch(() => undefined), DOCUMENT_PREFETCH_DELAY)
    return () => clearTimeout(timer)
  }, [id])
  // The route's Suspense boundary (index.tsx) shows its spinner while the chunk loads.
  if (id === SCHEMA_SEGMENT) return <Schema key={name} name={name} />
  if (id) return <Document key={`${name}/${id}`} name={name} id={id} />
  return <CollectionScreen key={name} name={name} />
}

/** After the table's first render, so the chunk does not compete with the start path's own work. */
const DOCUMENT_PREFETCH_DELAY = 1_000
