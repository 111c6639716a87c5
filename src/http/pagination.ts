import { Type, type Static } from 'typebox'
import type { Page } from '../lib/page.js'
import { FALLBACK } from './text.js'

/**
 * A query parameter whose bad values mean its default, never a 400. Marked so that the rule over texts
 * (text.ts) leaves it alone too: a U+0000 in it is one more value that is no number, never stored.
 * A parameter given twice arrives as a list: no number either, so it falls back like any other.
 */
export const FallbackText = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description, [FALLBACK]: true }))

/**
 * `limit` and `offset` never cause a 400 (docs/api/conventions.md › Everywhere): they are declared as text and a
 * missing, non-numeric or out-of-range value falls back to the default.
 */
export const PaginationQuery = {
  limit: FallbackText('integer 1..100, default 20; anything else means 20'),
  offset: FallbackText('integer >= 0, default 0; anything else means 0'),
}

/** The query string of a list that takes only a page. */
export const PageQuery = Type.Object(PaginationQuery)
export type PageQuery = Static<typeof PageQuery>

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100

/**
 * Digits with optional blanks around them. Not lib/decimal.ts's grammar on purpose: nothing here is
 * ever refused, so a value that is no whole number simply means the default.
 */
function wholeNumber (raw: string | string[] | undefined): number | undefined {
  if (typeof raw !== 'string' || !/^\s*\d+\s*$/.test(raw)) return undefined
  const value = Number(raw)
  return Number.isSafeInteger(value) ? value : undefined
}

/** The page a query string asks for; routes call this so that services receive a Page, not text. */
export function parsePage (query: PageQuery): Page {
  const limit = wholeNumber(query.limit)
  const offset = wholeNumber(query.offset)
  return {
    limit: limit !== undefined && limit >= 1 && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT,
    offset: offset ?? 0,
  }
}
