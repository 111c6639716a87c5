import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { DEFAULT_WEB_ROOT } from '../../src/http/web.js'
import { startApp, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

/**
 * The built app's main script: the last module script index.html names (the first may be the bundler's small
 * runtime). npm test builds the app before this file runs.
 */
function mainScript (): string {
  assert.ok(existsSync(`${DEFAULT_WEB_ROOT}/index.html`), 'web app not built: run npm run build:web')
  const scripts = [...readFileSync(`${DEFAULT_WEB_ROOT}/index.html`, 'utf8').matchAll(/<script type="module"[^>]* src="(\/assets\/[\w-]+\.js)"/g)]
  assert.ok(scripts.length > 0, 'index.html names no module script')
  return scripts.at(-1)![1]!
}

for (const engine of engines()) {
  describe(`web app served at / (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())
    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

    it('/ is the app page, revalidated on every visit, under a CSP without inline script', async () => {
      const res = await get('/', HTML)
      assert.equal(res.statusCode, 200)
      assert.match(String(res.headers['content-type']), /^text\/html/)
      assert.equal(res.headers['cache-control'], 'no-cache')
      // The root holds only the words shown until the app's first render replaces them.
      assert.match(res.body, /<div id="root"><p class="starting">Loading… · <span lang="de">Wird geladen…<\/span><\/p><\/div>/)
      const csp = String(res.headers['content-security-policy'])
      assert.match(csp, /script-src 'self'/)
      assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/)
      assert.match(csp, /default-src 'self'/)
      assert.match(csp, /worker-src 'self'(;|$)/)
    })

    it('an app route opened in a browser gets the app page; the app routes itself', async () => {
      for (const url of ['/profile', '/sign-in?next=%2Fprofile', '/requests/12']) {
        const res = await get(url, HTML)
        assert.equal(res.statusCode, 200, url)
        assert.match(res.body, /<div id="root"><p class="starting">/)
      }
    })

    it('API addresses, missing files and non-browser clients still get JSON 404s', async () => {
      for (const [url, headers] of [['/api/v1/nope', HTML], ['/api/v2/health', HTML], ['/assets/missing-abc123.js', HTML], ['/favicon.ico', HTML], ['/profile', {}]] as const) {
        const res = await get(url, headers)
        assert.equal(res.statusCode, 404, url)
        assert.deepEqual(res.json(), { error: 'not found' }, url)
      }
      const post = await t.app.inject({ method: 'POST', url: '/profile', headers: HTML })
      assert.equal(post.statusCode, 404)
    })

    it('hashed assets are sent precompressed, with a one-year immutable lifetime', async () => {
      const script = mainScript()
      const br = await get(script, { 'accept-encoding': 'gzip, deflate, br' })
      assert.equal(br.statusCode, 200)
      assert.equal(br.headers['content-encoding'], 'br')
      assert.match(String(br.headers['content-type']), /javascript/)
      assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable')
      const gz = await get(script, { 'accept-encoding': 'gzip' })
      assert.equal(gz.headers['content-encoding'], 'gzip')
      const plain = await get(script)
      assert.equal(plain.headers['content-encoding'], undefined)
      assert.ok(Number(br.headers['content-length']) < Number(plain.headers['content-length']) / 2)
    })

    it('the web manifest and icons are served for installing the app', async () => {
      const manifest = await get('/manifest.webmanifest')
      assert.equal(manifest.statusCode, 200)
      const body = JSON.parse(manifest.body)
      assert.equal(body.start_url, '/')
      assert.equal(body.display, 'standalone')
      for (const icon of body.icons as Array<{ src: string }>) assert.equal((await get(icon.src)).statusCode, 200, icon.src)
    })

    it('the service worker is served at /sw.js for the whole app, revalidated on every visit, listing the build\'s files and no API', async () => {
      for (const encoding of ['gzip, deflate, br', 'gzip', 'identity']) {
        const res = await get('/sw.js', { 'accept-encoding': encoding })
        assert.equal(res.statusCode, 200, encoding)
        assert.match(String(res.headers['content-type']), /javascript/)
        assert.equal(res.headers['cache-control'], 'no-cache', encoding)
        assert.equal(res.headers['service-worker-allowed'], '/', encoding)
      }
      const worker = (await get('/sw.js')).body
      const files = JSON.parse(/^const FILES = (\[.*\])$/m.exec(worker)![1]!) as string[]
      assert.match(worker, /^const VERSION = '[0-9a-f]{16}'$/m)
      assert.ok(files.includes('/') && files.includes(mainScript()) && files.includes('/manifest.webmanifest'))
      assert.ok(!files.some((file) => file.startsWith('/api/') || file === '/sw.js'))
      for (const file of files) assert.equal((await get(file, HTML)).statusCode, 200, file)
    })

    it('the API is unchanged beside it', async () => {
      const res = await get('/api/v1/health', HTML)
      assert.equal(res.statusCode, 200)
      assert.equal(res.body, 'ok')
    })
  })
}
