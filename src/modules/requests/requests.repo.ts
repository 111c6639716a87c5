import { maybeOne, one, type Queryable } from '../../db/database.js'
import type { CreateRequestInput, RequestDetail, RequestStatus, Request } from './requests.schemas.js'

export interface RequestRow extends Request {
  moderated_by: number | null
}

const REQUEST_COLUMNS = `r.id, r.requester_id, r.request_type_id, r.assigned_volunteer_id, r.title, r.description,
  r.address, r.city, r.desired_completion_date, r.urgency, r.status, r.contact_phone, r.contact_notes,
  r.created_at, r.updated_at`

/** `requester_name` and `request_type_name` of RequestListItem, for queries aliasing requests r, users u, request_types t. */
export const LIST_ITEM_COLUMNS = `r.id, r.title, r.description, r.address, r.city, r.urgency, r.status,
  u.first_name || ' ' || u.last_name AS requester_name, t.name AS request_type_name, r.created_at`

const userInfo = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'email', ${alias}.email, 'first_name', ${alias}.first_name,
    'last_name', ${alias}.last_name, 'email_verified', ${alias}.email_verified)`

export function insertRequest (db: Queryable, requesterId: number, input: CreateRequestInput): Promise<Request> {
  return one<Request>(db, /* sql */ `
    INSERT INTO requests AS r (requester_id, request_type_id, title, description, latitude, longitude, address, city,
      desired_completion_date, urgency, contact_phone, contact_notes)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
    RETURNING ${REQUEST_COLUMNS}`,
  [requesterId, input.request_type_id, input.title, input.description, input.latitude, input.longitude, input.address,
    input.city ?? null, input.desired_completion_date ?? null, input.urgency, input.contact_phone ?? null, input.contact_notes ?? null])
}

/** The request with its requester, type and assigned volunteer, in one query. */
export function findRequestDetail (db: Queryable, id: number): Promise<RequestDetail | undefined> {
  return maybeOne<RequestDetail>(db, /* sql */ `
    SELECT ${REQUEST_COLUMNS},
      ${userInfo('u')} AS requester,
      json_build_object('id', t.id, 'name', t.name, 'description', t.description, 'icon', t.icon, 'is_active', t.is_active) AS request_type,
      CASE WHEN v.id IS NULL THEN NULL ELSE ${userInfo('v')} END AS assigned_volunteer
    FROM requests r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
      LEFT JOIN users v ON v.id = r.assigned_volunteer_id
    WHERE r.id = $1`, [id])
}

/** Who may see what of one request: enough to decide without loading the whole detail. */
export function findRequestParties (db: Queryable, id: number): Promise<{ requester_id: number, assigned_volunteer_id: number | null, status: RequestStatus } | undefined> {
  return maybeOne(db, 'SELECT requester_id, assigned_volunteer_id, status FROM requests WHERE id = $1', [id])
}

/**
 * pending_moderation → approved or rejected, as one conditional update: zero rows means the request
 * is missing, the moderator's own, or not pending (the caller tells which).
 */
export async function moderateRequest (db: Queryable, id: number, moderatorId: number, status: 'approved' | 'rejected', comment: string | null): Promise<boolean> {
  const rows = await db.query(/* sql */ `
    UPDATE requests SET status = $3, moderated_by = $2, moderated_at = now(), moderation_comment = $4, updated_at = now()
    WHERE id = $1 AND status = 'pending_moderation' AND requester_id <> $2
    RETURNING id`, [id, moderatorId, status, comment])
  return rows.length > 0
}
