/**
 * PDF previews with pdf.js, imported only when a PDF is opened (it is large): its worker is a separate
 * asset (Vite `?url`) so parsing never blocks the page, and eval is off because the console's CSP has
 * no 'unsafe-eval'. Pages render to canvases, one after another, into the given container.
 */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'

GlobalWorkerOptions.workerSrc = workerUrl

/** The most pages a preview draws; the rest is a download away. */
export const PDF_PREVIEW_PAGES = 20

export interface PdfHandle {
  pages: number
  cancel(): void
}

export async function renderPdf(
  data: ArrayBuffer,
  container: HTMLElement,
  width: number,
  label: (page: number) => string,
): Promise<PdfHandle> {
  const task = getDocument({ data: new Uint8Array(data), isEvalSupported: false })
  const pdf = await task.promise
  let cancelled = false
  const handle: PdfHandle = {
    pages: pdf.numPages,
    cancel() {
      cancelled = true
      void task.destroy()
    },
  }
  const ratio = window.devicePixelRatio || 1
  void (async () => {
    for (let n = 1; n <= Math.min(pdf.numPages, PDF_PREVIEW_PAGES) && !cancelled; n++) {
      const page = await pdf.getPage(n)
      const base = page.getViewport({ scale: 1 })
      const viewport = page.getViewport({ scale: (width / base.width) * ratio })
      const canvas = document.createElement('canvas')
      canvas.width = Math.floor(viewport.width)
      canvas.height = Math.floor(viewport.height)
      canvas.className = 'pdf-page'
      canvas.setAttribute('role', 'img')
      canvas.setAttribute('aria-label', label(n))
      container.append(canvas)
      await page.render({ canvas, viewport }).promise
    }
  })().catch(() => {
    // Closed while rendering: nothing to show any more.
  })
  return handle
}
