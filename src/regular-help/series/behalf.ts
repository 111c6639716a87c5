import type { Queryable } from '../../db/database.js'
import type { Acting } from '../../events/events.js'
import { badRequest, notFound } from '../../lib/errors.js'
import { isModerator, type Principal } from '../../lib/principal.js'
import type { ActingPolicy, CreateFor, RequesterAction } from '../../help/requests/acting.js'
import type { SeriesRow } from './series.repo.js'
import { SERIES_NOT_FOUND } from './series.schemas.js'

/**
 * docs/api/on-behalf.md › Series for someone: who may read and change a series is who may act on its requests, asked
 * of the same acting policy (a coordinator on a client's series, a carer by her grant on the person's, the
 * requester on her own); moderators and admins read and end any.
 */

export const ON_BEHALF_FIXED = 'on_behalf_of cannot be changed'

/** The standing's grant each series operation needs of a carer: reading follows, a change needs `create`, the end `cancel`. */
export type SeriesAction = Extract<RequesterAction, 'follow' | 'create' | 'cancel'>

/**
 * In what capacity the caller acts on the series as its requester; undefined for a moderator or admin without
 * such a standing; 404 'series not found' to anyone else (403 'not allowed for this person' to a carer whose grant
 * lacks the action, from the policy).
 */
export async function actingOnSeries (db: Queryable, acting: ActingPolicy, caller: Principal, row: SeriesRow | undefined, action: SeriesAction): Promise<{ row: SeriesRow, acting: Acting | undefined }> {
  if (row === undefined) throw notFound(SERIES_NOT_FOUND)
  const standing = await acting.asRequester(db, caller, row, action)
  if (standing === undefined && !isModerator(caller)) throw notFound(SERIES_NOT_FOUND)
  return { row, acting: standing }
}

/** A changed template may repeat whom the series is for, never name someone else: 400 'on_behalf_of cannot be changed'. */
export function checkSameFor (row: SeriesRow, onBehalfOf: CreateFor | undefined): void {
  if (onBehalfOf === undefined) return
  const same = 'client_id' in onBehalfOf ? onBehalfOf.client_id === row.client_id : row.client_id === null && onBehalfOf.user_id === row.requester_id
  if (!same) throw badRequest(ON_BEHALF_FIXED)
}
