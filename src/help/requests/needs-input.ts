import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import { badRequest } from '../../lib/errors.js'
import { parseLanguages, type Gender } from '../../lib/matching-values.js'
import { parseNeeds, type NeedCode } from '../needs/needs.js'

/**
 * docs/api/visits.md › Needs and matching: a new request's (or a series template's) `needs` and `languages`, checked and
 * completed, for POST /requests and the series alike, whoever asks (herself, a coordinator for a client, a carer).
 */

export const INVALID_NEEDS = 'invalid needs'
export const INVALID_LANGUAGES = 'invalid languages'
export const GENDER_FIRST = 'set your gender in your profile first'
/** At most this many languages on a request. */
export const MAX_REQUEST_LANGUAGES = 5

/** What the caller gave. */
export interface NeedsAnswers { needs?: readonly string[] | undefined, languages?: readonly string[] | undefined }
/** Whom the request is for: the requester's own gender, or the client's record (docs/api/on-behalf.md). */
export interface NeedsFor { requestTypeId: number, requesterId: number, clientId: number | null }

/**
 * The needs and languages to store. Needs left out: the type's `default_needs`, less `same_gender` when the person has
 * no gender set (a default must not refuse what she did not choose). Languages left out: a client's recorded languages
 * (the coordinator wrote them down for this), else none. `same_gender` chosen without a gender: 400. One round trip.
 */
export async function resolveNeeds (db: Queryable, given: NeedsAnswers, whom: NeedsFor): Promise<{ needs: NeedCode[], languages: string[] }> {
  const needs = given.needs === undefined ? undefined : parseNeeds(given.needs)
  if (needs === undefined && given.needs !== undefined) throw badRequest(INVALID_NEEDS)
  const languages = given.languages === undefined ? undefined : parseLanguages(given.languages, MAX_REQUEST_LANGUAGES)
  if (languages === undefined && given.languages !== undefined) throw badRequest(INVALID_LANGUAGES)
  const facts = await maybeOne<{ default_needs: NeedCode[] | null, gender: Gender | null, client_languages: string[] | null }>(db, sql`
    SELECT (SELECT t.default_needs FROM request_types t WHERE t.id = ${whom.requestTypeId}::bigint) AS default_needs,
      CASE WHEN ${whom.clientId}::bigint IS NULL THEN (SELECT u.gender FROM users u WHERE u.id = ${whom.requesterId}::bigint)
        ELSE (SELECT c.gender FROM clients c WHERE c.id = ${whom.clientId}::bigint) END AS gender,
      (SELECT c.languages FROM clients c WHERE c.id = ${whom.clientId}::bigint) AS client_languages`)
  const gender = facts?.gender ?? null
  const chosen = needs ?? (facts?.default_needs ?? []).filter((need) => need !== 'same_gender' || gender !== null)
  if (chosen.includes('same_gender') && gender === null) throw badRequest(GENDER_FIRST)
  return { needs: chosen, languages: languages ?? facts?.client_languages ?? [] }
}
