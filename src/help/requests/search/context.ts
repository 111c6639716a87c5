import type { Queryable } from '../../../db/database.js'
import { empty, raw, sql, type Sql } from '../../../db/sql.js'
import { suitableFor } from '../../needs/matching.js'
import type { Disclosure, DisclosurePolicy } from '../disclosure.js'
import type { ViewPolicy } from './shared.js'
import { hasPermission, type Principal } from '../../../lib/principal.js'

/** The settings the searches follow (docs/privacy.md › `LOCATION_PRIVACY=grid`, docs/privacy.md › The grid, docs/api/help.md › Searches). */
export interface SearchPolicy extends DisclosurePolicy, ViewPolicy {
  boundsResultCap: number
  mapMarkerCap: number
}

/**
 * What a search runs on: the database, the settings, and what makes its answer and records what that
 * revealed (docs/privacy.md › Access records). The routes hold one and call the searches with it.
 */
export interface SearchContext {
  db: Queryable
  policy: SearchPolicy
  disclosure: Disclosure
  /** TIME_ZONE's date, on which a volunteer's driving check is judged (docs/api/visits.md › Needs and matching). */
  today: () => string
}

/**
 * Whether the caller is shown `suitable` (docs/api/visits.md › Needs and matching): those who may offer help. A caller
 * without respond_request (`suitable=true` too) has no capabilities to meet needs with, and sees everything, as 1.0.1.
 */
export const offersHelp = (viewer: Principal): boolean => hasPermission(viewer, 'respond_request')

/** The caller a search decides `suitable` for, on `today`, and whether only suitable requests are wanted (`suitable=true`). */
export interface SearchMatch { viewerId: number, today: string, only: boolean }

/** The match of a caller who offers help (offersHelp), else none. */
export const matchOf = ({ today }: SearchContext, viewer: Principal, only: boolean): SearchMatch | undefined =>
  offersHelp(viewer) ? { viewerId: viewer.id, today: today(), only } : undefined

const suitableSql = (match: SearchMatch): Sql => suitableFor(sql`${match.viewerId}::bigint`, sql`${match.today}::date`)
/** The `suitable` column of request `r`, NULL when the caller does not offer help. */
export const suitableOf = (match: SearchMatch | undefined): Sql => match === undefined ? raw('NULL::boolean') : suitableSql(match)
/** `suitable=true` as a condition on `r`, for the rows the index finds. */
export const onlySuitable = (match: SearchMatch | undefined): Sql => match?.only === true ? sql`AND ${suitableSql(match)}` : empty
