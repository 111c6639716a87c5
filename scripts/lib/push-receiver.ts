import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto'
import { execFile } from 'node:child_process'
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, Agent, type Server } from 'node:https'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/**
 * A real Web Push service for tests and the deliveries bench (docs/api/messaging.md › Web Push): HTTPS on 127.0.0.1
 * with a certificate for `localhost` made by openssl (now, or kept in a directory so that a service
 * started beforehand can trust it with NODE_EXTRA_CA_CERTS). It hands out subscriptions the way a browser makes them (its own
 * P-256 key pair and 16-byte auth secret), checks each push's VAPID signature (RFC 8292), decrypts
 * its aes128gcm body with the subscription's private key (RFC 8291), and records it. Endpoints are
 * `https://localhost:<port>/push/<random>`: tests run with PUSH_ENDPOINT_HOSTS=localhost.
 */

export interface BrowserSubscription {
  endpoint: string
  keys: { p256dh: string, auth: string }
}

export interface ReceivedPush {
  endpoint: string
  /** The decrypted body, parsed. */
  payload: any
  ttl: number
  urgency: string | undefined
  /** The `sub` claim of the VAPID token. */
  subject: string
  /** When it arrived (performance.timeOrigin + performance.now(), ms). */
  at: number
}

export interface ReceiverOptions {
  /** Port on 127.0.0.1 (default: any free one). */
  port?: number
  /** Where key.pem and cert.pem are kept: made there when absent and reused after (default: made now, then removed). */
  tlsDir?: string
}

/** Makes `dir`/key.pem and `dir`/cert.pem (a self-signed P-256 certificate for `localhost`, a day long) unless they exist. */
export async function localhostCertificate (dir: string): Promise<{ key: string, cert: string }> {
  const [keyPath, certPath] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
  const exists = await Promise.all([access(keyPath), access(certPath)]).then(() => true, () => false)
  if (!exists) {
    await mkdir(dir, { recursive: true })
    await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', keyPath, '-out', certPath])
  }
  const [key, cert] = await Promise.all([readFile(keyPath, 'utf8'), readFile(certPath, 'utf8')])
  return { key, cert }
}

interface Device { ecdh: ReturnType<typeof createECDH>, auth: Buffer, answer: number }

export class PushReceiver {
  /** Every push that was accepted (2xx), in arrival order. */
  readonly messages: ReceivedPush[] = []
  /** Every request that reached the server at all, refused ones too: "never contacted" means none here. */
  readonly requests: Array<{ path: string, status: number, problem?: string }> = []
  /** Trusts only this receiver's certificate; IPv4, where the server listens. */
  readonly agent: Agent
  private readonly devices = new Map<string, Device>()
  private readonly waiters: Array<() => void> = []

  private constructor (private readonly server: Server, readonly origin: string, ca: string, private readonly servicePublicKey: string) {
    this.agent = new Agent({ ca, family: 4, keepAlive: false })
  }

  /** `servicePublicKey`: the VAPID public key (base64url) every push must be signed with. */
  static async start (servicePublicKey: string, options: ReceiverOptions = {}): Promise<PushReceiver> {
    const dir = options.tlsDir ?? await mkdtemp(join(tmpdir(), 'push-receiver-'))
    try {
      const { key, cert } = await localhostCertificate(dir)
      const server = createServer({ key, cert })
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(options.port ?? 0, '127.0.0.1', resolve)
      })
      const port = (server.address() as { port: number }).port
      const receiver = new PushReceiver(server, `https://localhost:${port}`, cert, servicePublicKey)
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          response.writeHead(receiver.receive(request.url ?? '', request.headers, Buffer.concat(chunks))).end()
        })
      })
      return receiver
    } finally {
      if (options.tlsDir === undefined) await rm(dir, { recursive: true, force: true })
    }
  }

  /** A new browser subscription, as `PushSubscription.toJSON()` gives it. */
  subscribe (): BrowserSubscription {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const auth = randomBytes(16)
    const endpoint = `${this.origin}/push/${randomBytes(16).toString('base64url')}`
    this.devices.set(new URL(endpoint).pathname, { ecdh, auth, answer: 201 })
    return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }
  }

  /** From now on the endpoint's pushes are answered with `status` (410: unsubscribed, 500: failing); 201 to accept again. */
  answer (endpoint: string, status: number): void {
    this.device(new URL(endpoint).pathname).answer = status
  }

  messagesFor (endpoint: string): ReceivedPush[] {
    return this.messages.filter((message) => message.endpoint === endpoint)
  }

  /** Resolves once `count` pushes have reached the endpoint (accepted or not); rejects after `timeoutMs`. */
  async waitForRequests (endpoint: string, count: number, timeoutMs = 5000): Promise<void> {
    const path = new URL(endpoint).pathname
    const deadline = Date.now() + timeoutMs
    while (this.requests.filter((request) => request.path === path).length < count) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`push receiver: ${count} pushes to ${path} expected within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => { clearTimeout(timer); resolve() })
      })
    }
  }

  async close (): Promise<void> {
    this.agent.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private device (path: string): Device {
    const device = this.devices.get(path)
    if (device === undefined) throw new Error(`push receiver: no subscription ${path}`)
    return device
  }

  /** Checks, decrypts and records one push; the status to answer. A push that fails a check is a test failure, recorded as `problem`. */
  private receive (path: string, headers: IncomingHttpHeaders, body: Buffer): number {
    let status: number
    let problem: string | undefined
    try {
      const device = this.device(path)
      const subject = this.checkVapid(headers.authorization)
      if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${String(headers['content-encoding'])}`)
      const ttl = Number(headers.ttl)
      if (!Number.isInteger(ttl) || ttl < 0) throw new Error('no TTL')
      const payload = JSON.parse(decrypt(body, device.ecdh, device.auth).toString('utf8'))
      status = device.answer
      if (status >= 200 && status < 300) {
        this.messages.push({ endpoint: this.origin + path, payload, ttl, urgency: headers.urgency as string | undefined, subject, at: performance.timeOrigin + performance.now() })
      }
    } catch (error) {
      problem = (error as Error).message
      status = 400
    }
    this.requests.push({ path, status, ...(problem !== undefined ? { problem } : {}) })
    for (const wake of this.waiters.splice(0)) wake()
    return status
  }

  /** RFC 8292: `vapid t=<JWT>, k=<key>`; ES256 by the service's key, for this origin, not expired. Returns `sub`. */
  private checkVapid (authorization: string | undefined): string {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
    if (match === null) throw new Error('no vapid authorization')
    const [, jwt, key] = match as unknown as [string, string, string]
    if (key !== this.servicePublicKey) throw new Error('vapid key is not the service\'s')
    const [header, claims, signature] = jwt.split('.') as [string, string, string]
    const point = Buffer.from(key, 'base64url')
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' })
    if (!verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) {
      throw new Error('vapid signature does not verify')
    }
    if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('vapid alg is not ES256')
    const { aud, exp, sub } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string, exp: number, sub: string }
    const now = Date.now() / 1000
    if (aud !== this.origin) throw new Error(`vapid aud ${aud}`)
    if (!(exp > now && exp <= now + 86_400)) throw new Error('vapid exp out of range')
    if (!/^(mailto:|https:)/.test(sub)) throw new Error('vapid sub')
    return sub
  }
}

/** RFC 8291 (with RFC 8188's aes128gcm framing): the plaintext of one push, decrypted with the subscription's private key. */
function decrypt (body: Buffer, ecdh: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderKey = body.subarray(21, 21 + idLength)
  const records = body.subarray(21 + idLength)
  if (idLength !== 65 || records.length > recordSize) throw new Error('bad aes128gcm header')
  const receiverKey = ecdh.getPublicKey()
  const sharedSecret = ecdh.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverKey, senderKey])
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, authSecret, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  // One record (a push is at most 4 KiB), so its sequence number is 0 and the nonce is used as it is.
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(records.subarray(records.length - 16))
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('bad padding delimiter')
  return padded.subarray(0, end)
}
