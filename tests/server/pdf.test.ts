/**
 * POST /api/pdf (issue 13) against the real server and the real Chromium: HTML and template modes
 * produce a PDF whose text pdftotext (poppler-utils, installed by scripts/setup-browser.mjs) reads
 * back; HTML runs without JavaScript or network; URL mode refuses loopback and private addresses
 * (and redirects to them) unless MOMENTUM_PDF_ALLOW_HOSTS lists the host.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PDF_TEXT, VALIDATION } from '../../src/shared/texts'
import { pdfText } from '../helpers/pdf-text'
import { startTestServer, type TestServer } from '../helpers/server'
import { suiteServer } from '../helpers/suite-server'

/** A page server on loopback, as an attacker would aim at; records every path requested. */
let peer: http.Server
let peerUrl: string
const hits: string[] = []

beforeAll(async () => {
  peer = http.createServer((req, res) => {
    hits.push(req.url ?? '')
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://localhost:${(peer.address() as AddressInfo).port}/secret` })
      return res.end()
    }
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(`<h1>Peer page ${req.url}</h1>`)
  })
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve))
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`
}, 60_000)
afterAll(async () => {
  await new Promise((resolve) => peer?.close(resolve))
})
const server = suiteServer()

/** POSTs to /api/pdf and returns the status with the raw body. */
async function pdf(body: unknown, token = server.admin, on: TestServer = server) {
  const res = await fetch(`${on.url}/api/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const bytes = Buffer.from(await res.arrayBuffer())
  return { status: res.status, type: res.headers.get('content-type'), bytes, text: bytes.toString('utf8') }
}

describe('POST /api/pdf', () => {
  it('answers the SPEC §5 message when html, url and template are all missing', async () => {
    const res = await pdf({ options: { size: 'A4' } })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text).message).toBe(VALIDATION.pdfMissing)
    const two = await pdf({ html: '<p>x</p>', url: 'https://example.com/' })
    expect(two.status).toBe(400)
    expect(JSON.parse(two.text).message).toBe(PDF_TEXT.oneSource)
  })

  it('needs pdf:c, and read access to the template in template mode', async () => {
    const token = await server.userWith('pdf-nobody', ['templates:r'])
    expect((await pdf({ html: '<p>x</p>' }, token)).status).toBe(403)
    const created = await server.api('/api/templates', {
      json: { _id: 'pdf-hidden', kind: 'pdf', html: '<p>hidden</p>' },
      token: server.admin,
    })
    expect(created.status).toBe(201)
    const maker = await server.userWith('pdf-maker', ['pdf:c'])
    expect((await pdf({ template: 'pdf-hidden' }, maker)).status).toBe(403)
  })

  it('stops a runaway pdf template with 422', async () => {
    const created = await server.api('/api/templates', {
      json: {
        _id: 'pdf-loop',
        kind: 'pdf',
        html: '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}',
      },
      token: server.admin,
    })
    expect(created.status).toBe(201)
    const res = await pdf({ template: 'pdf-loop' })
    expect(res.status).toBe(422)
  })

  it('renders HTML to a PDF whose text reads back, without JavaScript or network', async () => {
    const before = hits.length
    const res = await pdf({
      html: `<h1>Invoice 4711</h1><p>Total: 12.50 EUR</p>
        <script>document.body.append('SCRIPT-RAN')</script>
        <img src="${peerUrl}/probe-img"><link rel="stylesheet" href="${peerUrl}/probe-css">
        <iframe src="${peerUrl}/probe-frame"></iframe>`,
      options: { size: 'A5', orientation: 'landscape', margin: { top: '10mm' } },
    })
    expect(res.status, res.text.slice(0, 200)).toBe(200)
    expect(res.type).toBe('application/pdf')
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const text = pdfText(res.bytes)
    expect(text).toContain('Invoice 4711')
    expect(text).toContain('Total: 12.50 EUR')
    expect(text).not.toContain('SCRIPT-RAN')
    expect(hits.slice(before)).toEqual([])
  })

  it('renders a pdf template with data, its header and footer', async () => {
    const created = await server.api('/api/templates', {
      json: {
        _id: 'receipt',
        kind: 'pdf',
        html: '<h1>Receipt for {{ customer }}</h1>{% for l in lines %}<p>{{ l.item }}: {{ l.price }}</p>{% endfor %}',
        footer: '<div style="font-size:10px">Footer of {{ customer }}</div>',
        page: { size: 'Letter', margin: { top: '20mm', bottom: '20mm' } },
      },
      token: server.admin,
    })
    expect(created.status, created.text).toBe(201)
    const res = await pdf({
      template: 'receipt',
      data: { customer: 'Ada <Lovelace>', lines: [{ item: 'Tea', price: '3.20' }] },
    })
    expect(res.status, res.text.slice(0, 200)).toBe(200)
    const text = pdfText(res.bytes)
    expect(text).toContain('Receipt for Ada <Lovelace>')
    expect(text).toContain('Tea: 3.20')
    expect(text).toContain('Footer of Ada <Lovelace>')

    const email = await server.api('/api/templates', {
      json: { _id: 'not-pdf', kind: 'sms', text: 'x' },
      token: server.admin,
    })
    expect(email.status).toBe(201)
    const wrong = await pdf({ template: 'not-pdf' })
    expect(wrong.status).toBe(400)
    expect(JSON.parse(wrong.text).message).toBe(PDF_TEXT.notPdfTemplate('not-pdf', 'sms'))
  })

  it.each([
    ['http://127.0.0.1:1/', '127.0.0.1'],
    ['http://localhost:1/', 'localhost'],
    ['http://[::1]:1/', '::1'],
    ['http://10.1.2.3/', '10.1.2.3'],
    ['http://192.168.1.1/admin', '192.168.1.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
  ])('refuses %s (loopback, private or link-local)', async (url, host) => {
    const res = await pdf({ url })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text).message).toBe(PDF_TEXT.urlPrivate(host))
  })

  it('refuses the loopback page server, and file: URLs', async () => {
    const before = hits.length
    const res = await pdf({ url: `${peerUrl}/private` })
    expect(res.status).toBe(400)
    expect(hits.slice(before)).toEqual([])
    const file = await pdf({ url: 'file:///etc/passwd' })
    expect(file.status).toBe(400)
    expect(JSON.parse(file.text).message).toBe(PDF_TEXT.urlInvalid)
  })

  it('loads an allow-listed host, but not a private host it redirects to', async () => {
    const port = (peer.address() as AddressInfo).port
    const allowing = await startTestServer({ pdfAllowHosts: [`127.0.0.1:${port}`] })
    try {
      const token = await allowing.login()
      const ok = await pdf({ url: `${peerUrl}/allowed` }, token, allowing)
      expect(ok.status, ok.text.slice(0, 200)).toBe(200)
      expect(pdfText(ok.bytes)).toContain('Peer page /allowed')

      const before = hits.length
      const redirected = await pdf({ url: `${peerUrl}/redirect` }, token, allowing)
      expect(hits.slice(before)).toEqual(['/redirect'])
      if (redirected.status === 200) expect(pdfText(redirected.bytes)).not.toContain('/secret')
      else expect(redirected.status).toBe(502)
    } finally {
      await allowing.close()
    }
  }, 60_000)
})
