/**
 * The sample Storage files of a first start (issue 36.14): a `samples` folder with a text file, an
 * SVG and a PNG image and a CSV, so the Storage screen opens on something to preview, share and
 * download. Written through the root's BlobStore (disk or S3, as every upload) and recorded in the
 * store (meta.ts), exactly as an upload would leave them. Small (about 3 KB together), so they fit any
 * quota. Run by bootstrap after the documents, only with MOMENTUM_SEED=sample.
 */
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { Services } from './services'
import type { BlobStat } from './storage/blob-store'
import { recordEntries } from './storage/meta'

export const SAMPLE_FOLDER = 'samples'

const README = `Sample files

These files were created on the first start of this Momentum server (MOMENTUM_SEED=sample),
so the Storage section has something to open: preview an image, share a file with a link that
expires, download or delete them. Start a server with MOMENTUM_SEED=none for an empty one.
`

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <rect width="128" height="128" rx="24" fill="#2563eb"/>
  <path d="M32 96V32l32 36 32-36v64" fill="none" stroke="#fff" stroke-width="12" stroke-linejoin="round"/>
</svg>
`

const PRODUCTS_CSV = `product,name,price,currency
starter,Starter plan,9.00,EUR
team,Team plan,29.00,EUR
enterprise,Enterprise plan,99.00,EUR
`

/** A 48×48 PNG of a blue-to-teal gradient, made here so no binary sits in the source tree. */
export function gradientPng(size = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(zlib.crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const rows: number[] = []
  for (let y = 0; y < size; y++) {
    rows.push(0) // filter: none
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * (size - 1))
      rows.push(
        Math.round(37 + t * (20 - 37)),
        Math.round(99 + t * (184 - 99)),
        Math.round(235 + t * (166 - 235)),
      )
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export const SAMPLE_FILES: ReadonlyArray<{ name: string; bytes: () => Buffer }> = [
  { name: 'README.txt', bytes: () => Buffer.from(README) },
  { name: 'logo.svg', bytes: () => Buffer.from(LOGO_SVG) },
  { name: 'gradient.png', bytes: () => gradientPng() },
  { name: 'products.csv', bytes: () => Buffer.from(PRODUCTS_CSV) },
]

/** Creates the folder and its files in the Storage root (skipped when the folder exists). */
export async function seedSampleFiles(services: Services): Promise<void> {
  const blobs = services.blobs.storage
  if (await blobs.stat(SAMPLE_FOLDER)) return
  const stats: BlobStat[] = [await blobs.mkdir(SAMPLE_FOLDER)]
  for (const file of SAMPLE_FILES) {
    const staged = await blobs.stage(Readable.from([file.bytes()]))
    stats.push(await blobs.commit(staged, `${SAMPLE_FOLDER}/${file.name}`))
  }
  await recordEntries(services, null, 'storage', stats)
}
