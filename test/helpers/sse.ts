import { request, type ClientRequest, type IncomingMessage } from 'node:http'

export interface SseEvent { id?: string, event?: string, data?: string }

/**
 * A Server-Sent Events client on a real port: collects events and comment lines as they arrive, and
 * lets a test wait for them. `pause()` stops reading, as a slow client would.
 */
export class SseClient {
  readonly events: SseEvent[] = []
  readonly comments: string[] = []
  status = 0
  headers: IncomingMessage['headers'] = {}
  body = ''
  /** Resolves when the server ends or drops the stream. */
  readonly ended: Promise<void>
  #buffer = ''
  #waiters: Array<() => void> = []
  #req: ClientRequest
  #res: IncomingMessage | undefined
  #opened: Promise<void>

  constructor (url: string, headers: Record<string, string>) {
    let end: () => void = () => {}
    this.ended = new Promise((resolve) => { end = resolve })
    let opened: () => void = () => {}
    let failed: (error: Error) => void = () => {}
    this.#opened = new Promise((resolve, reject) => { opened = resolve; failed = reject })
    this.#req = request(url, { headers, agent: false }, (res) => {
      this.#res = res
      this.status = res.statusCode ?? 0
      this.headers = res.headers
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => this.#take(chunk))
      res.on('end', end)
      res.on('close', end)
      res.on('error', end)
      opened()
    })
    this.#req.on('error', (error) => { failed(error); end() })
    this.#req.end()
  }

  static async open (base: string, token: string | undefined, options: { lastEventId?: number | string, path?: string } = {}): Promise<SseClient> {
    const headers: Record<string, string> = { accept: 'text/event-stream' }
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId)
    const client = new SseClient(`${base}${options.path ?? '/events'}`, headers)
    await client.#opened
    if (client.status === 200) await client.until(() => client.body.includes('retry:'))
    else await client.ended
    return client
  }

  #take (chunk: string): void {
    this.body += chunk
    this.#buffer += chunk
    for (let at = this.#buffer.indexOf('\n\n'); at >= 0; at = this.#buffer.indexOf('\n\n')) {
      const block = this.#buffer.slice(0, at)
      this.#buffer = this.#buffer.slice(at + 2)
      const event: SseEvent = {}
      let isEvent = false
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments.push(line.slice(1).trim())
        const match = /^(id|event|data): ?(.*)$/.exec(line)
        if (match !== null) {
          isEvent = true
          event[match[1] as keyof SseEvent] = match[2]
        }
      }
      if (isEvent) this.events.push(event)
    }
    for (const waiter of this.#waiters.splice(0)) waiter()
  }

  /** Waits until `check()` holds (re-checked whenever data arrives) or the stream ends; then asserts nothing. */
  async until (check: () => boolean): Promise<boolean> {
    let ended = false
    this.ended.then(() => { ended = true; for (const waiter of this.#waiters.splice(0)) waiter() }, () => {})
    while (!check()) {
      if (ended) return false
      await new Promise<void>((resolve) => this.#waiters.push(resolve))
    }
    return true
  }

  /** The parsed `data` of events with ids, in arrival order. */
  notifications (): any[] {
    return this.events.filter((event) => event.data !== undefined).map((event) => JSON.parse(event.data!))
  }

  async waitFor (count: number): Promise<any[]> {
    await this.until(() => this.events.length >= count)
    return this.notifications()
  }

  pause (): void { this.#res?.pause() }
  resume (): void { this.#res?.resume() }

  close (): void {
    this.#req.destroy()
    this.#res?.destroy()
  }
}
