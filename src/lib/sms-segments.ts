/**
 * How a text travels by SMS (docs/api/messaging.md › Texts): in the GSM 03.38 default alphabet when every
 * character is in it (data_coding 0x00; 160 septets alone, 153 a segment when split, the rest holding the
 * concatenation header), else in UCS-2 (data_coding 0x08; 70 UTF-16 units alone, 67 a segment).
 */
const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
/** Characters of the extension table: each is sent as an escape and itself, two septets. */
const GSM_EXTENDED = '\f^{}\\[~]|€'

const BASIC = new Set(GSM_BASIC)
const EXTENDED = new Set(GSM_EXTENDED)

/** The most segments a text of the service may take (docs/api/messaging.md › Texts). */
export const MAX_SMS_SEGMENTS = 2

export type SmsEncoding = 'gsm' | 'ucs2'

export interface SmsShape {
  encoding: SmsEncoding
  /** The SMPP data_coding: 0x00 (the SMSC's default alphabet, GSM 03.38) or 0x08 (UCS-2). */
  dataCoding: 0x00 | 0x08
  /** Septets (GSM) or UTF-16 code units (UCS-2). */
  units: number
  segments: number
}

/** Whether every character of `text` is in the GSM 03.38 default alphabet or its extension table. */
export function isGsmText (text: string): boolean {
  for (const character of text) {
    if (!BASIC.has(character) && !EXTENDED.has(character)) return false
  }
  return true
}

/** The encoding and the number of segments `text` takes. An empty text is one segment. */
export function smsShape (text: string): SmsShape {
  if (isGsmText(text)) {
    const sizes = [...text].map((character) => EXTENDED.has(character) ? 2 : 1)
    return { encoding: 'gsm', dataCoding: 0x00, units: sum(sizes), segments: segmentsOf(sizes, 160, 153) }
  }
  // A character outside the basic plane is two UTF-16 units, and a segment never splits the pair.
  const sizes = [...text].map((character) => character.length)
  return { encoding: 'ucs2', dataCoding: 0x08, units: sum(sizes), segments: segmentsOf(sizes, 70, 67) }
}

function sum (sizes: readonly number[]): number {
  return sizes.reduce((total, size) => total + size, 0)
}

/** Segments needed when characters of these sizes are packed in order, none split across two segments. */
function segmentsOf (sizes: readonly number[], alone: number, perSegment: number): number {
  if (sum(sizes) <= alone) return 1
  let segments = 1
  let used = 0
  for (const size of sizes) {
    if (used + size > perSegment) {
      segments += 1
      used = 0
    }
    used += size
  }
  return segments
}
