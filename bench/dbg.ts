import { launch } from '/work/main/bench/lib/browser'
import { buildAll } from '/work/main/bench/lib/build'
import { startServer } from '/work/main/bench/lib/server'
const b = await buildAll()
const s = await startServer({ uiDir: b.uiDir, staticDir: b.pageDir, collections: { bench: 100 } })
const br = await launch()
const p = await br.newPage()
p.on('console', (m) => console.log('console', m.type(), m.text()))
p.on('pageerror', (e) => console.log('pageerror', e.message))
p.on('requestfailed', (r) => console.log('failed', r.url()))
p.on('response', (r) => { if (r.status() >= 400) console.log('status', r.status(), r.url()) })
await p.goto(`${s.url}/index.html`)
await p.waitForTimeout(3000)
console.log(await p.evaluate(() => document.body.innerHTML))
console.log(require('fs').readdirSync(b.pageDir), require('fs').readdirSync(b.pageDir + '/assets'))
await br.close(); await s.stop(); b.cleanup()
