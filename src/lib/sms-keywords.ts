/**
 * What a text a person sent says (docs/api/messaging.md › Texts › Replies): a keyword in English or German, read
 * without regard to case and to spaces and punctuation around it, and for the answers to a text the 4-digit code
 * that text carried. Anything else is no reply the service acts on.
 */
export type ReplyKeyword = 'stop' | 'start' | 'help' | 'yes' | 'ok' | 'no'
export interface Reply { keyword: ReplyKeyword, code?: string }

const ALONE: Record<string, ReplyKeyword> = { STOP: 'stop', STOPP: 'stop', START: 'start', HELP: 'help', HILFE: 'help' }
const WITH_CODE: Record<string, ReplyKeyword> = { YES: 'yes', JA: 'yes', OK: 'ok', NO: 'no', NEIN: 'no' }

/** Letters and digits make the words; everything else (spaces, punctuation, emoji) only separates them. */
const words = (text: string): string[] => text.toUpperCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '')

export function readReply (text: string): Reply | undefined {
  const [first, second, ...rest] = words(text)
  if (first === undefined || rest.length > 0) return undefined
  if (second === undefined) return ALONE[first] === undefined ? undefined : { keyword: ALONE[first] }
  const keyword = WITH_CODE[first]
  return keyword !== undefined && /^\d{4}$/.test(second) ? { keyword, code: second } : undefined
}
