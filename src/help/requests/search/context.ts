import type { Queryable } from '../../../db/database.js'
import type { Disclosure, DisclosurePolicy } from '../disclosure.js'
import type { ViewPolicy } from './shared.js'

/** The settings the searches follow (docs/privacy.md › `LOCATION_PRIVACY=grid`, docs/privacy.md › The grid, docs/api/help.md › Searches). */
export interface SearchPolicy extends DisclosurePolicy, ViewPolicy {
  boundsResultCap: number
  mapMarkerCap: number
}

/**
 * What a search runs on: the database, the settings, and what makes its answer and records what that
 * revealed (docs/privacy.md › Access records). The routes hold one and call the searches with it.
 */
export interface SearchContext { db: Queryable, policy: SearchPolicy, disclosure: Disclosure }
