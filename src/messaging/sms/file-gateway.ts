import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { MAX_SMS_SEGMENTS, smsShape } from '../../lib/sms-segments.js'
import { writeWholeFile } from '../../lib/whole-file.js'
import type { OutgoingText, SmsGateway, SmsHandlers, SubmitOutcome } from './gateway.js'

/** The most segments a text may take; the service keeps every text within it, a longer one is refused. */
export const MAX_SEGMENTS = MAX_SMS_SEGMENTS

/**
 * Texts without SMS_SMPP_URL (docs/api/messaging.md › Texts): each outgoing text is one JSON file
 * `<id>.json` in `dir` (`{"id", "to", "text", "encoding", "segments", "created_at"}`), written whole; incoming
 * texts are JSON files `{"from", "text", "received_at"?}` dropped into `dir/incoming/` (by `npm run sms:receive`),
 * handed to the handlers and removed only after the handler resolved, so a crash in between hands the file over
 * again and the handler's repeat-safety covers it. Files starting with a dot are being written and are skipped.
 */
export class FileSmsGateway implements SmsGateway {
  readonly started = Promise.resolve()

  private handlers: SmsHandlers | undefined
  private timer: NodeJS.Timeout | undefined
  private polling: Promise<void> | undefined
  private folderReady: Promise<unknown> | undefined

  constructor (private readonly dir: string, private readonly options: { pollMs?: number, now?: () => Date } = {}) {}

  async submit (text: OutgoingText): Promise<SubmitOutcome> {
    const shape = smsShape(text.text)
    if (shape.segments > MAX_SEGMENTS) return { outcome: 'gone', reason: `text too long (${shape.segments} segments)` }
    const id = `file-${this.now().getTime()}-${randomBytes(6).toString('hex')}`
    try {
      this.folderReady ??= mkdir(this.dir, { recursive: true, mode: 0o700 })
      await this.folderReady
      const body = { id, to: text.to, text: text.text, encoding: shape.encoding, segments: shape.segments, created_at: this.now().toISOString() }
      await writeWholeFile(join(this.dir, `${id}.json`), `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 })
      return { outcome: 'sent', messageId: id }
    } catch (error) {
      this.folderReady = undefined
      return { outcome: 'retry', reason: `file not written (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
    }
  }

  listen (handlers: SmsHandlers): void {
    this.handlers = handlers
    this.timer ??= setInterval(() => { this.pollNow().catch(() => {}) }, this.options.pollMs ?? 1000)
    this.timer.unref()
  }

  /** Hands every file waiting in `incoming/` to the handler now (one pass at a time); the timer calls it too. */
  async pollNow (): Promise<void> {
    this.polling ??= this.poll().finally(() => { this.polling = undefined })
    await this.polling
  }

  async close (): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    await this.polling
  }

  private async poll (): Promise<void> {
    const handlers = this.handlers
    if (handlers === undefined) return
    const folder = incomingDir(this.dir)
    const names = await readdir(folder).catch(() => [] as string[])
    for (const name of names.filter((entry) => !entry.startsWith('.') && entry.endsWith('.json')).sort()) {
      const file = join(folder, name)
      const parsed = await readIncoming(file)
      if (parsed === undefined) continue
      try {
        await handlers.incoming({ from: parsed.from, text: parsed.text, gatewayId: `file:${name}`, receivedAt: parsed.receivedAt ?? this.now() })
      } catch {
        continue // the file stays and is handed over again on the next pass
      }
      await unlink(file).catch(() => {})
    }
  }

  private now (): Date {
    return this.options.now?.() ?? new Date()
  }
}

/** The folder incoming texts are dropped into. */
export function incomingDir (dir: string): string {
  return join(dir, 'incoming')
}

/** Writes one incoming text for the file gateway to pick up (what `npm run sms:receive` does). */
export async function writeIncomingText (dir: string, from: string, text: string, receivedAt = new Date()): Promise<string> {
  const folder = incomingDir(dir)
  await mkdir(folder, { recursive: true, mode: 0o700 })
  const file = join(folder, `${receivedAt.getTime()}-${randomBytes(6).toString('hex')}.json`)
  await writeWholeFile(file, `${JSON.stringify({ from, text, received_at: receivedAt.toISOString() })}\n`, { mode: 0o600, exclusive: true })
  return file
}

async function readIncoming (file: string): Promise<{ from: string, text: string, receivedAt: Date | undefined } | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as { from?: unknown, text?: unknown, received_at?: unknown }
    if (typeof value.from !== 'string' || typeof value.text !== 'string') return undefined
    const receivedAt = typeof value.received_at === 'string' ? new Date(value.received_at) : undefined
    return { from: value.from, text: value.text, receivedAt: receivedAt !== undefined && !Number.isNaN(receivedAt.getTime()) ? receivedAt : undefined }
  } catch {
    return undefined
  }
}
