/**
 * The "Layout" picker of email and pdf HTML: a layout is referenced in the source itself
 * (`{% layout "base" %}` + `{% block content %}…{% endblock %}`, docs/operating/templates.md), so picking one
 * rewrites that first tag, and wraps the body in the content block when it has no block yet.
 */
const LAYOUT_TAG = /^\s*\{%-?\s*layout\s+["']([^"']*)["'][^%]*-?%\}\s*/

/** The layout id the source starts with, or ''. */
export function layoutOf(source: string): string {
  return LAYOUT_TAG.exec(source)?.[1] ?? ''
}

/** The source with its layout set to `id` ('' removes the tag and keeps the blocks). */
export function withLayout(source: string, id: string): string {
  const body = source.replace(LAYOUT_TAG, '')
  if (!id) return body
  const blocked = /\{%-?\s*block\s/.test(body) ? body : `{% block content %}${body}{% endblock %}`
  return `{% layout "${id}" %}${blocked}`
}
