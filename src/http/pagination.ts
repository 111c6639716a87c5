import { Type } from 'typebox'

/**
 * `limit` and `offset` never cause a 400 (interface.md › Limits): they are declared as text and a
 * missing, non-numeric or out-of-range value falls back to the default.
 */
export const PaginationQuery = {
  // A parameter given twice arrives as a list: no number either, so it falls back like any other.
  limit: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'integer 1..100, default 20; anything else means 20' })),
  offset: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'integer >= 0, default 0; anything else means 0' })),
}

export interface PageParams { limit?: string | string[] | undefined, offset?: string | string[] | undefined }

export interface Page { limit: number, offset: number }

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100

function wholeNumber (raw: string | string[] | undefined): number | undefined {
  if (typeof raw !== 'string' || !/^\s*\d+\s*$/.test(raw)) return undefined
  const value = Number(raw)
  return Number.isSafeInteger(value) ? value : undefined
}

export function parsePage (query: PageParams): Page {
  const limit = wholeNumber(query.limit)
  const offset = wholeNumber(query.offset)
  return {
    limit: limit !== undefined && limit >= 1 && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT,
    offset: offset ?? 0,
  }
}
