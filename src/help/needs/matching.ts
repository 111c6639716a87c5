import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql, type Sql } from '../../db/sql.js'
import { holdsCheckOn } from '../../accounts/checks/checks.repo.js'
import type { Capability, Gender } from '../../lib/matching-values.js'
import type { NeedCode } from './needs.js'

/**
 * docs/api/visits.md › Needs and matching: whether a volunteer meets a request's needs and shares a language with it.
 * The rule is written three times, each for its reader, and test/http/matching.test.ts holds them to one table:
 * missingFor (an offer, in JavaScript), meetsRequest (a known request against volunteers in SQL: alerts, offers' `suitable`)
 * and suitableFor (a known volunteer against requests in SQL: the searches and the detail).
 * A volunteer's `car` and `wheelchair_vehicle` count only while they hold a valid `driving` check (on `today`,
 * TIME_ZONE's date, as every check); `same_gender` needs both genders set and equal; the genders never leave the database
 * but as this yes or no.
 */

/** The capability each need asks for; same_gender asks for the requester's gender instead. */
const CAPABILITY_OF: Record<Exclude<NeedCode, 'same_gender'>, Capability> = {
  car: 'car',
  wheelchair_vehicle: 'wheelchair_vehicle',
  door_through_door: 'door_through_door',
  lifting: 'lifting',
  pets_at_home: 'ok_with_pets',
}
const DRIVING: readonly Capability[] = ['car', 'wheelchair_vehicle']

/** What the matching knows of a request. */
export interface RequestNeeds { needs: readonly NeedCode[], languages: readonly string[], requesterGender: Gender | null }
/** What the matching knows of a volunteer: `driving` is whether a valid driving check is held today. */
export interface VolunteerOffer { capabilities: readonly Capability[], languages: readonly string[], gender: Gender | null, driving: boolean }

/** The needs the volunteer does not meet, in the table's order, then `language` when none is shared; [] when suitable. */
export function missingFor (request: RequestNeeds, volunteer: VolunteerOffer): string[] {
  const missing: string[] = request.needs.filter((need) => {
    if (need === 'same_gender') return volunteer.gender === null || volunteer.gender !== request.requesterGender
    const capability = CAPABILITY_OF[need]
    return !volunteer.capabilities.includes(capability) || (DRIVING.includes(capability) && !volunteer.driving)
  })
  if (request.languages.length > 0 && !request.languages.some((code) => volunteer.languages.includes(code))) missing.push('language')
  return missing
}

/**
 * The need codes volunteer `u` (a users alias) meets by capability, a text[]: `ok_with_pets` read as `pets_at_home`,
 * the driving ones only with a valid driving check on `today` (an SQL date expression).
 */
export const metNeedsOf = (u: string, today: Sql): Sql => sql`ARRAY(
  SELECT CASE c WHEN 'ok_with_pets' THEN 'pets_at_home' ELSE c END FROM unnest(${raw(u)}.capabilities) c
  WHERE c NOT IN ('car', 'wheelchair_vehicle') OR ${holdsCheckOn(raw(`${u}.id`), 'driving', today)})`

/** A request known beforehand, for meetsRequest: its needs and languages; its requester's gender stays in the database. */
export interface KnownRequest { id: number, needs: readonly NeedCode[], languages: readonly string[] }

/**
 * The condition "volunteer `u` (a users alias) meets this request" for a request known beforehand; `true` when it
 * needs nothing, so that a request without needs costs alerts nothing more.
 */
export function meetsRequest (request: KnownRequest, u: string, today: Sql): Sql {
  const byCapability = request.needs.filter((need) => need !== 'same_gender')
  const tests: Sql[] = []
  if (byCapability.length > 0) tests.push(sql`${metNeedsOf(u, today)} @> ${byCapability}::text[]`)
  if (request.needs.includes('same_gender')) {
    tests.push(sql`${raw(u)}.gender = (SELECT ${requesterGender('q')} FROM requests q WHERE q.id = ${request.id}::bigint)`)
  }
  if (request.languages.length > 0) tests.push(sql`${raw(u)}.languages && ${[...request.languages]}::text[]`)
  if (tests.length === 0) return raw('true')
  return sql`coalesce(${tests.reduce((all, test) => sql`${all} AND ${test}`)}, false)`
}

/**
 * Whether the volunteer `userId` (an SQL expression) meets the request, judged on `today`: `true` for a request that
 * needs nothing; one scalar subquery otherwise, evaluated only for the rows that reach it (alert eligibility).
 */
export function volunteerMeets (request: KnownRequest & { today: string }, userId: Sql): Sql {
  if (request.needs.length === 0 && request.languages.length === 0) return raw('true')
  return sql`coalesce((SELECT ${meetsRequest(request, 'u', sql`${request.today}::date`)} FROM users u WHERE u.id = ${userId}), false)`
}

/** The requester's gender of request alias `r`: the client's for a client's request, else the requester's own. */
const requesterGender = (r: string): Sql => raw(`CASE WHEN ${r}.client_id IS NULL THEN (SELECT g.gender FROM users g WHERE g.id = ${r}.requester_id)
  ELSE (SELECT g.gender FROM clients g WHERE g.id = ${r}.client_id) END`)

/** How the volunteer's side is read: a column of theirs (of users alias `u`) as an SQL expression. */
type VolunteerSide = (column: Sql) => Sql

/**
 * The condition "the volunteer meets request `r`". A request without needs or languages is decided without
 * reading the volunteer at all: most requests have none.
 */
function suitableWith (side: VolunteerSide, today: Sql, alias: string): Sql {
  const r = raw(alias)
  return sql`(cardinality(${r}.needs) = 0 AND cardinality(${r}.languages) = 0 OR coalesce(
    array_remove(${r}.needs, 'same_gender') <@ ${side(metNeedsOf('u', today))}
    AND (cardinality(${r}.languages) = 0 OR ${r}.languages && ${side(raw('u.languages'))})
    AND (NOT ('same_gender' = ANY (${r}.needs)) OR ${side(raw('u.gender'))} = ${requesterGender(alias)}), false))`
}

/**
 * The condition "the volunteer `viewer` (an SQL expression of their id) meets request `r`", for many requests: the
 * volunteer's side is read by uncorrelated subqueries, which PostgreSQL evaluates once per statement (InitPlans).
 * Written with `viewer` and `today` as given (SQL expressions), so a statement built once per shape (search/nearby.ts) can pass its slots.
 */
export const suitableFor = (viewer: Sql, today: Sql, alias = 'r'): Sql =>
  suitableWith((column) => sql`(SELECT ${column} FROM users u WHERE u.id = ${viewer})`, today, alias)

/** The same condition in a statement that reads the request as `r` and the volunteer as `u` side by side (offers). */
export const suitablePair = (today: Sql): Sql => suitableWith((column) => column, today, 'r')

/**
 * What an offer is judged on, in one read: the request's needs and languages with its requester's gender, and the
 * volunteer's capabilities, languages, gender and whether they hold a valid driving check on `today`.
 */
export async function findOfferFacts (db: Queryable, requestId: number, volunteerId: number, today: string): Promise<{ request: RequestNeeds, volunteer: VolunteerOffer } | undefined> {
  const row = await maybeOne<{
    needs: NeedCode[],
    languages: string[],
    requester_gender: Gender | null,
    capabilities: Capability[],
    volunteer_languages: string[],
    gender: Gender | null,
    driving: boolean
  }>(db, sql`
    SELECT r.needs, r.languages, ${requesterGender('r')} AS requester_gender,
      u.capabilities, u.languages AS volunteer_languages, u.gender, ${holdsCheckOn(raw('u.id'), 'driving', sql`${today}::date`)} AS driving
    FROM requests r, users u WHERE r.id = ${requestId} AND u.id = ${volunteerId}`)
  if (row === undefined) return undefined
  return {
    request: { needs: row.needs, languages: row.languages, requesterGender: row.requester_gender },
    volunteer: { capabilities: row.capabilities, languages: row.volunteer_languages, gender: row.gender, driving: row.driving },
  }
}

/** The refusal of an offer that misses some needs (docs/api/visits.md › Needs and matching). */
export const cannotOffer = (missing: readonly string[]): string => `you cannot offer this help: it needs ${missing.join(', ')}`
