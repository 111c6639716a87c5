import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

/** The raw header block of a GET over a real socket: status line, headers and the blank line that ends them. */
async function headerBlock (base: string, path: string, headers: Record<string, string> = {}): Promise<string> {
  const url = new URL(path, base)
  const socket = connect(Number(url.port), url.hostname)
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  socket.write(`${lines.join('\r\n')}\r\n\r\n`)
  let received = ''
  for await (const chunk of socket) {
    received += String(chunk)
    const end = received.indexOf('\r\n\r\n')
    if (end >= 0) {
      socket.destroy()
      return received.slice(0, end + 4)
    }
  }
  throw new Error(`no header block in ${JSON.stringify(received)}`)
}

/** Status line, then each header's lower-cased name and value, as sent. */
function parse (block: string): { status: string, headers: Map<string, string> } {
  const [status, ...lines] = block.trimEnd().split('\r\n')
  const headers = new Map(lines.map((line) => {
    const colon = line.indexOf(':')
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const
  }))
  return { status: status!, headers }
}

/** What every JSON answer carries, and nothing more; the values that change per answer are checked by form. */
const JSON_ANSWER = {
  'x-content-type-options': 'nosniff',
  // The configured CORS origins: a cache must keep answers to different origins apart.
  vary: 'Origin',
  'content-type': 'application/json; charset=utf-8',
  // Personal data: never stored by a browser or a proxy.
  'cache-control': 'no-store',
  'content-length': /^\d+$/,
  date: /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  connection: 'keep-alive',
  'keep-alive': /^timeout=\d+$/,
}

/** The page security headers a browser reads from a document. */
const PAGE_HEADERS = ['content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster',
  'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control', 'x-download-options',
  'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']

for (const engine of engines()) {
  describe(`the headers of JSON answers and of pages (${engine})`, () => {
    let t: TestApp
    let base: string
    before(async () => {
      t = await startApp(engine, { corsOrigins: ['https://app.example.org'] })
      base = `${await t.listen()}/`
    })
    after(() => t.close())

    for (const path of ['users/me', 'requests/nearby?lat=52.52&lon=13.405&radius=5000']) {
      it(`GET /${path}: exactly nosniff, no-store, CORS's vary and HTTP's own, in at most 300 bytes`, async () => {
        const user = await t.register()
        const block = await headerBlock(base, path, { authorization: `Bearer ${user.token}` })
        const { status, headers } = parse(block)
        assert.equal(status, 'HTTP/1.1 200 OK')
        assert.deepEqual([...headers.keys()].sort(), Object.keys(JSON_ANSWER).sort())
        for (const [name, expected] of Object.entries(JSON_ANSWER)) {
          if (typeof expected === 'string') assert.equal(headers.get(name), expected, name)
          else assert.match(headers.get(name)!, expected, name)
        }
        assert.ok(block.length <= 300, `${block.length} header bytes: ${JSON.stringify(block)}`)
      })
    }

    it('a failure also carries its request id, which names its log line', async () => {
      const { status, headers } = parse(await headerBlock(base, 'requests/nearby?lat=1000&lon=0&radius=5000'))
      assert.match(status, /^HTTP\/1\.1 401 /)
      assert.match(headers.get('x-request-id')!, /^[0-9a-f-]{36}$/)
      assert.equal(headers.get('content-security-policy'), undefined)
    })

    for (const path of ['/', '/api/v1/docs']) {
      it(`${path}, a page, carries the page security headers and its own cache policy`, async () => {
        const { status, headers } = parse(await headerBlock(base, path, { accept: 'text/html' }))
        assert.equal(status, 'HTTP/1.1 200 OK')
        for (const name of PAGE_HEADERS) assert.ok(headers.has(name), `${path} lacks ${name}`)
        assert.match(headers.get('content-security-policy')!, /default-src 'self'/)
        assert.match(headers.get('content-security-policy')!, /script-src 'self';/)
        assert.equal(headers.get('x-frame-options'), 'SAMEORIGIN')
        assert.equal(headers.get('content-type'), 'text/html; charset=utf-8')
        assert.notEqual(headers.get('cache-control'), 'no-store')
      })
    }
  })
}
