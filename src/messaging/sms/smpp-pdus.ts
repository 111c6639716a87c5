import { createHash } from 'node:crypto'
import smpp from 'smpp'
import { smsShape } from '../../lib/sms-segments.js'

/**
 * The SMPP 3.4 fields of texts (docs/api/messaging.md › Texts): segments with their concatenation header, the
 * sender's address type, receipts read from the receipt text or its TLVs, and the parts of a long incoming text.
 */

const ESM_UDHI = 0x40
const ESM_TYPE_MASK = 0x3c
const ESM_DELIVERY_RECEIPT = 0x04
/** SMPP message_state values as receipt `stat` words. */
const MESSAGE_STATES: Record<number, string> = { 1: 'ENROUTE', 2: 'DELIVRD', 3: 'EXPIRED', 4: 'DELETED', 5: 'UNDELIV', 6: 'ACCEPTD', 7: 'UNKNOWN', 8: 'REJECTD' }

export interface Address { addr: string, ton: number, npi: number }

/** SMS_FROM as an SMPP source: an E.164 number is international/ISDN, a name is alphanumeric (TON 5). */
export function sourceAddress (from: string): Address {
  return from.startsWith('+') ? { addr: from.slice(1), ton: 1, npi: 1 } : { addr: from, ton: 5, npi: 0 }
}

export function destinationAddress (to: string): Address {
  return { addr: to.replace(/^\+/, ''), ton: 1, npi: 1 }
}

export interface Segment { shortMessage: Buffer, esmClass: number, dataCoding: number }

/**
 * The submit_sm bodies of `text`: one alone, or parts of at most 153 septets (GSM) or 67 UTF-16 units (UCS-2)
 * each after a 6-byte concatenation header (8-bit reference `reference`), never splitting a character.
 */
export function segmentsOf (text: string, reference: number): Segment[] {
  const shape = smsShape(text)
  const encode = (part: string): Buffer => shape.encoding === 'gsm' ? smpp.encodings.ASCII.encode(part) : Buffer.from(swapToBigEndian(part))
  if (shape.segments === 1) return [{ shortMessage: encode(text), esmClass: 0, dataCoding: shape.dataCoding }]
  const limit = shape.encoding === 'gsm' ? 153 : 67
  const parts: string[] = []
  let current = ''
  let used = 0
  for (const character of text) {
    const size = shape.encoding === 'gsm' ? smpp.encodings.ASCII.encode(character).length : character.length
    if (used + size > limit) {
      parts.push(current)
      current = ''
      used = 0
    }
    current += character
    used += size
  }
  parts.push(current)
  return parts.map((part, index) => ({
    shortMessage: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, reference & 0xff, parts.length, index + 1]), encode(part)]),
    esmClass: ESM_UDHI,
    dataCoding: shape.dataCoding,
  }))
}

function swapToBigEndian (text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16()
}

export interface ParsedReceipt { messageId: string, stat: string }

/** The receipt in a deliver_sm, or undefined when it is an incoming text. TLVs win over the receipt text. */
export function receiptOf (pdu: Record<string, unknown>): ParsedReceipt | undefined {
  if (((pdu.esm_class as number) & ESM_TYPE_MASK) !== ESM_DELIVERY_RECEIPT) return undefined
  const body = messageText(pdu)
  const idTlv = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id.replace(/\0+$/, '') : undefined
  const stateTlv = typeof pdu.message_state === 'number' ? MESSAGE_STATES[pdu.message_state] : undefined
  const messageId = idTlv ?? /(?:^|\s)id:(\S+)/i.exec(body)?.[1]
  const stat = stateTlv ?? /(?:^|\s)stat:(\S+)/i.exec(body)?.[1]
  if (messageId === undefined || stat === undefined) return { messageId: messageId ?? '', stat: stat ?? 'UNKNOWN' }
  return { messageId, stat: stat.toUpperCase() }
}

/** The decoded text of a deliver_sm (the library decodes by data_coding: GSM 03.38 or UCS-2). */
export function messageText (pdu: Record<string, unknown>): string {
  const body = pdu.short_message as { message?: unknown } | string | undefined
  const message = typeof body === 'string' ? body : body?.message
  if (typeof message === 'string' && message.length > 0) return message
  const payload = pdu.message_payload as { message?: unknown } | string | undefined
  const fromPayload = typeof payload === 'string' ? payload : payload?.message
  return typeof fromPayload === 'string' ? fromPayload : ''
}

export interface PartInfo { reference: string, total: number, index: number }

/** The concatenation header of a text's part (8- or 16-bit reference), if it is one. */
export function partOf (pdu: Record<string, unknown>): PartInfo | undefined {
  const body = pdu.short_message as { udh?: Buffer[] } | undefined
  for (const element of body?.udh ?? []) {
    if (element[0] === 0x00 && element.length >= 5) return { reference: String(element[2]), total: element[3]!, index: element[4]! }
    if (element[0] === 0x08 && element.length >= 6) return { reference: String(element.readUInt16BE(2)), total: element[4]!, index: element[5]! }
  }
  return undefined
}

/** The sender of an incoming text as E.164 when the gateway says it is international or it is all digits. */
export function senderOf (pdu: Record<string, unknown>): string {
  const addr = typeof pdu.source_addr === 'string' ? pdu.source_addr : ''
  return /^[0-9]{6,15}$/.test(addr) && (pdu.source_addr_ton === 1 || !addr.startsWith('0')) ? `+${addr}` : addr
}

/**
 * An incoming text's id for repeat-safety: SMPP gives a mobile-originated text no id of its own, and a gateway
 * repeating a deliver_sm sends the same sender, recipient and text, so these, with the day, identify it.
 */
export function incomingId (from: string, to: string, text: string, receivedAt: Date): string {
  return `smpp:${createHash('sha256').update(`${from}\n${to}\n${receivedAt.toISOString().slice(0, 10)}\n${text}`).digest('hex').slice(0, 32)}`
}
