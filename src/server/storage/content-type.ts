/**
 * Content types by file extension, for the files the console previews and the Web Server commonly
 * holds; anything else is application/octet-stream. Served with nosniff, so the browser never guesses
 * a type from the bytes. Types that can run script when opened (HTML, SVG, XML, JavaScript) are
 * "active": the API sends them as attachments (index.ts), on top of its sandboxing CSP.
 */
const TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  xhtml: 'application/xhtml+xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
}

const ACTIVE = /^(text\/html|text\/javascript|image\/svg\+xml|application\/(xml|xhtml\+xml))\b/

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return (dot > 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream'
}

/** Whether a browser opening this type inline could run script in it. */
export const isActiveType = (type: string): boolean => ACTIVE.test(type)
