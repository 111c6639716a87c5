import { startApp, type Account, type TestApp } from './app.js'
import type { Engine } from './engines.js'

/**
 * What the suites of GET /requests/nearby and GET /requests/bounds share: their app, the statuses a request can
 * have, the fields of their list items, and a region of its own for every test.
 */

export const REQUEST_STATUSES = ['pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected']

/**
 * The fields of a nearby or bounds item, sorted; docs/api/visits.md › Needs and matching: a caller who
 * may offer help is told whether they can (`suitable`).
 */
export const SEARCH_ITEM_FIELDS = ['address', 'city', 'confirmed_at', 'created_at', 'description', 'id', 'languages', 'location', 'needs', 'request_type_name', 'requester_name',
  'series_id', 'status', 'suitable', 'title', 'urgency', 'window_end', 'window_start']

/** The bounds cap of the search suites' app, small so the cap is easy to reach. */
export const BOUNDS_CAP = 5

let regions = 0
/**
 * Every test works in a region of its own, far from the others' (the app and its database are shared
 * by the tests of one engine): a test's searches see only what it put there.
 */
export function region (): { lat: number, lon: number } {
  regions += 1
  return { lat: -60 + (regions % 12) * 10, lon: -170 + Math.floor(regions / 12) * 20 + (regions % 12) * 1.5 }
}

/**
 * The search suites' app on `engine`, with the bounds cap above; `owner` (named `name`) is whose requests the
 * tests insert, `searcher` a volunteer who looks for them.
 */
export async function startSearchApp (engine: Engine, name: { first_name: string, last_name: string }): Promise<{ t: TestApp, owner: Account, searcher: Account }> {
  const t = await startApp(engine, { boundsResultCap: BOUNDS_CAP })
  return { t, owner: await t.register(name), searcher: await t.register() }
}
