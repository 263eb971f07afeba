/**
 * The Database section: the collections list and the editor (a collection's grid, a document, a
 * schema). Each is a chunk of its own, precached by the service worker so they open offline; an offline
 * start on a document or schema fetches that inner chunk with the editor (issue 20, "3. Offline cold
 * start").
 */
import { Table2 } from 'lucide-react'
import { defineSection } from '../../routing/section'
import { DATA_EDITOR_PATTERN } from '../../routing/table'
import { Document, Schema } from './entries'
import { SCHEMA_SEGMENT } from './schema/href'

export const section = defineSection({
  routes: [
    {
      pattern: '/data',
      title: 'Database',
      auth: 'required',
      screen: 'data',
      load: async () => (await import('./DatabaseScreen')).DatabaseScreen,
    },
    {
      pattern: DATA_EDITOR_PATTERN,
      title: 'Database editor',
      auth: 'required',
      screen: 'data-editor',
      load: async () => (await import('./DataEditorScreen')).DataEditorScreen,
      // `{collection}`, `{collection}/{id}` or `{collection}/~schema`: the last two render an inner chunk.
      preload: ({ rest }) => {
        const [, ...id] = (rest ?? '').split('/')
        if (id.length === 0) return Promise.resolve()
        return (id.join('/') === SCHEMA_SEGMENT ? Schema : Document).preload()
      },
    },
  ],
  menu: [
    {
      key: 'database',
      title: 'Database',
      icon: Table2,
      href: '/data',
      needs: ['data'],
      group: 'data',
      order: 1,
    },
  ],
})
