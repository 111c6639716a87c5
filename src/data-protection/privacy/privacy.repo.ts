import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { DeliveryListRow } from '../../messaging/deliveries/deliveries.repo.js'
import type { NotificationRow } from '../../messaging/notifications/notifications.repo.js'

/**
 * The export's sections (docs/privacy.md › Erasure), one small query each. Reads only: every write of erasure is in
 * the repo that owns its table (src/README.md). Nothing here selects another person's contact
 * data or e-mail: other people appear by id only.
 */

export function exportRequests (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT r.id, r.request_type_id, t.name AS request_type_name, r.title, r.description, r.address, r.city,
      r.latitude, r.longitude, r.desired_completion_date, r.urgency, r.status, r.contact_phone, r.contact_notes,
      r.assigned_volunteer_id, r.moderated_at, r.moderation_comment, r.created_at, r.updated_at, r.finished_at, r.minimised_at
    FROM requests r JOIN request_types t ON t.id = r.request_type_id
    WHERE r.requester_id = ${userId}
    ORDER BY r.created_at, r.id`)
}

/** The user's offers of help, with the title of the request each was made on. */
export function exportResponses (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT vr.id, vr.request_id, r.title AS request_title, vr.status, vr.message,
      vr.responded_at, vr.accepted_at, vr.rejected_at, vr.cancelled_at
    FROM volunteer_responses vr JOIN requests r ON r.id = vr.request_id
    WHERE vr.volunteer_id = ${userId}
    ORDER BY vr.responded_at, vr.id`)
}

export function exportRatingsGiven (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT id, request_id, volunteer_id, score, comment, created_at
    FROM ratings WHERE rater_id = ${userId} ORDER BY created_at, id`)
}

export function exportRatingsReceived (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT id, request_id, rater_id, score, comment, created_at
    FROM ratings WHERE volunteer_id = ${userId} ORDER BY created_at, id`)
}

/** Every notification of the user, in the inbox's order (newest first) and with its columns. */
export function exportNotifications (db: Queryable, userId: number): Promise<NotificationRow[]> {
  return db.query<NotificationRow>(sql`
    SELECT id, user_id, type, request_id, data, created_at, read_at FROM notifications
    WHERE user_id = ${userId} ORDER BY id DESC`)
}

/**
 * Every delivery to the caller (docs/api/messaging.md › Deliveries and e-mail), as GET /users/me/deliveries shows them, newest first:
 * not an invitation's e-mail nor a client's text (docs/api/on-behalf.md › Texts to a client), which went to someone else.
 */
export function exportDeliveries (db: Queryable, userId: number): Promise<DeliveryListRow[]> {
  return db.query<DeliveryListRow>(sql`
    SELECT notification_id, account_message, channel, status, attempts, last_error, sent_at, created_at
    FROM deliveries WHERE user_id = ${userId} AND invitation_id IS NULL AND client_id IS NULL ORDER BY id DESC`)
}

/**
 * The caller's visits as a volunteer (docs/api/visit-checks.md), by request: the check-in and check-out, the
 * jobs' stamps about the visit, the worry (a time only) and the minutes and kilometres recorded.
 */
export function exportVisits (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT request_id, checked_in_at, checked_out_at, worried_at, not_started_at, overdue_at, escalated_at,
      minutes, distance_km::float8 AS distance_km, expenses_at
    FROM request_visits WHERE volunteer_id = ${userId}
    ORDER BY request_id`)
}

/** The texts the caller sent that went to the texts inbox (docs/api/messaging.md › Texts › The inbox), newest first; whether and when someone dealt with each, not who. */
export function exportTexts (db: Queryable, userId: number): Promise<Array<Record<string, unknown>>> {
  return db.query(sql`
    SELECT id, received_at, text, request_id, handled_at FROM sms_inbox
    WHERE user_id = ${userId} ORDER BY received_at DESC, id DESC`)
}
