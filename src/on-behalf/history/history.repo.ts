import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { ActorRole } from '../../events/events.js'

/**
 * Owns `request_history` (migrations/0024_behalf.sql, docs/api/on-behalf.md › A request's history): rows are only ever inserted, in the
 * transaction of the change they record (history.reactions.ts). No names and no free text are stored:
 * names are read from `users` when the history is shown, so erasure's "Former user" and retention's
 * minimisation of requests leave nothing here to change.
 */

export type HistoryAction = 'created' | 'approved' | 'rejected' | 'offer_made' | 'offer_withdrawn' | 'offer_rejected' |
  'accepted' | 'confirmed' | 'reminded' | 'cancelled' | 'completed' | 'alert_round' | 'edited' |
  'checked_in' | 'checked_out' | 'visit_not_started' | 'visit_overdue'

/** One entry to write; `actorId` null (and role 'service') for what the service did. */
export interface NewEntry {
  requestId: number
  at: Date
  action: HistoryAction
  actorId: number | null
  actorRole: ActorRole | 'service'
  clientId: number | null
  userId: number | null
  details: Record<string, unknown>
}

/** Writes the entries in one statement (an accept writes one per offer it decided). */
export async function insertEntries (db: Queryable, entries: readonly NewEntry[]): Promise<void> {
  if (entries.length === 0) return
  await db.query(sql`
    INSERT INTO request_history (request_id, at, action, actor_id, actor_role, on_behalf_client_id, on_behalf_user_id, details)
    SELECT * FROM unnest(${entries.map((e) => e.requestId)}::bigint[], ${entries.map((e) => e.at)}::timestamptz[],
      ${entries.map((e) => e.action)}::text[], ${entries.map((e) => e.actorId)}::bigint[], ${entries.map((e) => e.actorRole)}::text[],
      ${entries.map((e) => e.clientId)}::bigint[], ${entries.map((e) => e.userId)}::bigint[], ${entries.map((e) => JSON.stringify(e.details))}::jsonb[])`)
}

/** A cancellation, its details the reason the request row holds (`requester`, `moderator`, `expired`, `series_changed`) and `more`. */
export async function insertCancellation (db: Queryable, entry: Omit<NewEntry, 'action' | 'details'>, more: Record<string, unknown> = {}): Promise<void> {
  await db.query(sql`
    INSERT INTO request_history (request_id, at, action, actor_id, actor_role, on_behalf_client_id, on_behalf_user_id, details)
    SELECT r.id, ${entry.at}::timestamptz, 'cancelled', ${entry.actorId}::bigint, ${entry.actorRole}, ${entry.clientId}::bigint,
      ${entry.userId}::bigint, jsonb_build_object('reason', r.cancel_reason) || ${JSON.stringify(more)}::jsonb
    FROM requests r WHERE r.id = ${entry.requestId}`)
}

/** An entry as read, with the actor's name now and, for an offer's entries, whose offer it was. */
export interface EntryRow {
  at: Date
  action: HistoryAction
  actor_id: number | null
  actor_name: string | null
  actor_role: ActorRole | 'service'
  on_behalf_client_id: number | null
  on_behalf_user_id: number | null
  details: Record<string, unknown>
  offer_volunteer_id: number | null
}

/** The request's entries, oldest first: in the order written. */
export function listEntries (db: Queryable, requestId: number): Promise<EntryRow[]> {
  return db.query<EntryRow>(sql`
    SELECT h.at, h.action, h.actor_id, CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS actor_name,
      h.actor_role, h.on_behalf_client_id, h.on_behalf_user_id, h.details, v.volunteer_id AS offer_volunteer_id
    FROM request_history h
    LEFT JOIN users u ON u.id = h.actor_id
    LEFT JOIN volunteer_responses v ON v.id = (h.details ->> 'response_id')::bigint
    WHERE h.request_id = ${requestId}
    ORDER BY h.id`)
}
