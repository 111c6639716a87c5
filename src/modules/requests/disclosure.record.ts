import { sql, type Sql } from '../../db/sql.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import type { DisclosurePolicy } from './disclosure.js'
import { VOLUNTEER_SEES_EXACT } from './search/shared.js'

/**
 * The access record of a detail read written by the read itself (trust.md §5, docs/performance.md "Access
 * records"): one statement instead of a read and then a write, which halves what a reveal costs. That needs the
 * reveal rule in SQL. The rule stays decided in disclosure.ts (revealedFields, roleOf): this is its twin for
 * the detail row, proven equal over every combination of what it reads by test/db/access-record-rule.test.ts,
 * and checked at every read by Disclosure.recordedDetail, which writes the record itself when they differ.
 */

/** What the rule reads of the viewer, their Principal reduced to the facts revealedFields asks of it. */
export interface RecordingViewer {
  id: number
  /** isModerator: a moderator or an admin. */
  moderator: boolean
  admin: boolean
  /** hasPermission(viewer, 'coordinate_requests'). */
  coordinates: boolean
  /** ADDRESS_PRIVACY=parties: the address is a recorded field when shown. */
  parties: boolean
}

export const recordingViewer = (viewer: Principal, policy: DisclosurePolicy): RecordingViewer => ({
  id: viewer.id,
  moderator: isModerator(viewer),
  admin: viewer.roles.includes('admin'),
  coordinates: hasPermission(viewer, 'coordinate_requests'),
  parties: policy.addressPrivacy === 'parties',
})

/** The columns of `d` the rule reads: those of a DetailRow that revealedFields reads. */
export const RULE_COLUMNS = ['id', 'requester_id', 'assigned_volunteer_id', 'client_id', 'viewer_is_carer', 'status', 'contact_phone', 'contact_notes'] as const

/**
 * The record the viewer's read of the row `d` (one detail row, RULE_COLUMNS at least) makes, as a SELECT of
 * access.repo's RECORD_COLUMNS: no row when nothing is revealed or the viewer is the requester. Each line is one
 * of disclosure.ts's: `k` the viewer's relations to the request, `s` isParty and seesExactPoint, `f` the fields.
 */
export function revealedRecord (viewer: RecordingViewer, at: Date): Sql {
  return sql`
    SELECT 'request', p.viewer, d.requester_id, d.id,
      CASE WHEN k.assigned THEN 'assigned volunteer' WHEN p.admin THEN 'admin' WHEN p.moderator THEN 'moderator'
        WHEN k.carer THEN 'carer' ELSE 'coordinator' END,
      f.fields, ARRAY[p.at], p.at
    FROM d
      CROSS JOIN (SELECT ${viewer.id}::bigint AS viewer, ${viewer.moderator}::boolean AS moderator, ${viewer.admin}::boolean AS admin,
        ${viewer.coordinates}::boolean AS coordinates, ${viewer.parties}::boolean AS parties, ${at}::timestamptz AS at) p
      CROSS JOIN LATERAL (SELECT d.requester_id = p.viewer AS requester, COALESCE(d.assigned_volunteer_id = p.viewer, false) AS assigned,
        COALESCE(d.viewer_is_carer, false) AS carer, (d.client_id IS NOT NULL AND p.coordinates) AS coordinates) k
      CROSS JOIN LATERAL (SELECT k.requester OR k.assigned OR p.moderator OR k.coordinates OR k.carer AS party,
        k.requester OR p.moderator OR k.carer OR k.coordinates OR (k.assigned AND d.status = ANY(${VOLUNTEER_SEES_EXACT}::text[])) AS exact) s
      CROSS JOIN LATERAL (SELECT array_remove(ARRAY[
        CASE WHEN s.party AND d.contact_phone IS NOT NULL THEN 'contact_phone' END,
        CASE WHEN s.party AND d.contact_notes IS NOT NULL THEN 'contact_notes' END,
        CASE WHEN p.parties AND s.exact THEN 'address' END], NULL) AS fields) f
    WHERE NOT k.requester AND cardinality(f.fields) > 0`
}
