/**
 * One page of a list, already checked: `limit` 1..100 and `offset` >= 0. Routes read it from the query
 * string (src/http/pagination.ts) and hand it to services, so nothing below the routes parses text.
 */
export interface Page { limit: number, offset: number }
