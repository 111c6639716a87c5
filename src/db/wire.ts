/**
 * The few PostgreSQL protocol messages a statement's answer is made of, read straight from the bytes
 * PGlite writes: PGlite's general-purpose parser copies every field before decoding it, a cost the profile
 * showed (docs/performance.md). Text format only, as every statement here uses. Hand-made rather than
 * pg-protocol's Parser: as fast within the noise (a 50-row answer of 10 columns in 211 µs against its 196 µs,
 * 2026-12-03, docs/bench/wire-parser.md), with no glue to turn its messages into these rows.
 */

/** Turns a column's text into its JavaScript value, by type OID (PGlite's parsers). */
export type Parsers = Record<number, ((text: string, typeId: number) => unknown) | undefined>

export interface Column { name: string, typeId: number }

/** A statement's failure, with the fields PostgreSQL reports (the same names as node-postgres's DatabaseError). */
export class StatementError extends Error {
  severity?: string
  code?: string
  detail?: string
  hint?: string
  schema?: string
  table?: string
  column?: string
  constraint?: string
  routine?: string
}

const ERROR_FIELDS: Record<string, keyof StatementError | undefined> = {
  S: 'severity', C: 'code', D: 'detail', H: 'hint', s: 'schema', t: 'table', c: 'column', n: 'constraint', R: 'routine',
}

// `ignoreBOM`: a text starting with U+FEFF is read back with it, as PostgreSQL's own clients read it (the default drops it).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** One answer of PostgreSQL: its messages in order, as the bytes arrived in chunks. */
export class Answer {
  readonly #bytes: Uint8Array
  readonly #view: DataView
  /** The same bytes as a Buffer: its toString decodes a field a fifth faster than TextDecoder, and keeps U+FEFF too. */
  readonly #buffer: Buffer
  constructor (chunks: readonly Uint8Array[]) {
    this.#bytes = chunks.length === 1 ? chunks[0]! : concat(chunks)
    this.#buffer = Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength)
    this.#view = new DataView(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength)
  }

  /** Each message's type byte and the bounds of its body. */
  * messages (): Generator<{ type: number, start: number, end: number }> {
    for (let at = 0; at + 5 <= this.#bytes.length;) {
      const end = at + 1 + this.#view.getUint32(at + 1)
      yield { type: this.#bytes[at]!, start: at + 5, end }
      at = end
    }
  }

  /** The first error in the answer, if any. */
  error (): StatementError | undefined {
    for (const message of this.messages()) {
      if (message.type !== 0x45) continue // 'E' ErrorResponse
      const fields: Record<string, string> = {}
      for (let at = message.start; at < message.end && this.#bytes[at] !== 0;) {
        const code = String.fromCharCode(this.#bytes[at]!)
        const stop = this.#bytes.indexOf(0, at + 1)
        fields[code] = decoder.decode(this.#bytes.subarray(at + 1, stop))
        at = stop + 1
      }
      const error = new StatementError(fields.M ?? 'database error')
      for (const [code, key] of Object.entries(ERROR_FIELDS)) {
        if (key !== undefined && fields[code] !== undefined) (error as unknown as Record<string, string>)[key] = fields[code]
      }
      return error
    }
    return undefined
  }

  /** NOTIFY messages ('A' NotificationResponse) delivered with this answer. */
  notifications (): Array<{ channel: string, payload: string }> {
    const found: Array<{ channel: string, payload: string }> = []
    for (const message of this.messages()) {
      if (message.type !== 0x41) continue
      const channelEnd = this.#bytes.indexOf(0, message.start + 4)
      const payloadEnd = this.#bytes.indexOf(0, channelEnd + 1)
      found.push({
        channel: decoder.decode(this.#bytes.subarray(message.start + 4, channelEnd)),
        payload: decoder.decode(this.#bytes.subarray(channelEnd + 1, payloadEnd)),
      })
    }
    return found
  }

  /** The tag of the last completed command ('C' CommandComplete), e.g. `COMMIT` or `ROLLBACK`. */
  commandTag (): string | undefined {
    let tag: string | undefined
    for (const message of this.messages()) {
      if (message.type === 0x43) tag = decoder.decode(this.#bytes.subarray(message.start, message.end - 1))
    }
    return tag
  }

  /** The parameter types of a described statement ('t' ParameterDescription). */
  parameterTypes (): number[] {
    for (const message of this.messages()) {
      if (message.type !== 0x74) continue
      const count = this.#view.getUint16(message.start)
      return Array.from({ length: count }, (_, i) => this.#view.getUint32(message.start + 2 + 4 * i))
    }
    return []
  }

  /** The columns of the rows ('T' RowDescription), or none. */
  columns (): Column[] {
    for (const message of this.messages()) {
      if (message.type !== 0x54) continue
      const count = this.#view.getUint16(message.start)
      const columns: Column[] = []
      let at = message.start + 2
      for (let i = 0; i < count; i++) {
        const stop = this.#bytes.indexOf(0, at)
        const name = this.#buffer.toString('utf8', at, stop)
        // after the name: table OID (4), column number (2), type OID (4), size (2), modifier (4), format (2)
        columns.push({ name, typeId: this.#view.getUint32(stop + 7) })
        at = stop + 19
      }
      return columns
    }
    return []
  }

  /** The rows ('D' DataRow) as objects, each value parsed for its column's type. */
  rows (columns: readonly Column[], parsers: Parsers): Array<Record<string, unknown>> {
    const rows: Array<Record<string, unknown>> = []
    for (const message of this.messages()) {
      if (message.type !== 0x44) continue
      const row: Record<string, unknown> = {}
      let at = message.start + 2
      for (const column of columns) {
        const length = this.#view.getInt32(at)
        at += 4
        if (length < 0) {
          row[column.name] = null
          continue
        }
        const text = this.#buffer.toString('utf8', at, at + length)
        at += length
        const parse = parsers[column.typeId]
        row[column.name] = parse !== undefined ? parse(text, column.typeId) : text
      }
      rows.push(row)
    }
    return rows
  }
}

/** The bytes of several protocol messages (or answer chunks) as one. */
export function concat (parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}
