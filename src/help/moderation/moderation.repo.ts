import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'
import { LIST_ITEM_COLUMNS, LIST_ITEM_FROM, type ListItemRow } from '../requests/search/shared.js'

/** The moderation lists. Writes no table: a decision changes the request row, so requests.repo.ts holds it. */

export interface ModerationRow extends ListItemRow { desired_completion_date: Date | null }

/**
 * The queue: most urgent first, then oldest first (docs/api/help.md › Searches). The moderator's own
 * requests are left out, since they may not moderate them.
 */
export function listPending (db: Queryable, moderatorId: number, page: Page): Promise<ModerationRow[]> {
  return db.query<ModerationRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}, r.desired_completion_date
    FROM ${LIST_ITEM_FROM}
    WHERE r.status = 'pending_moderation' AND r.requester_id <> ${moderatorId}
    ORDER BY CASE r.urgency WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END,
      r.created_at, r.id
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** The requests this moderator approved or rejected, most recently moderated first, as they are now. */
export function listModeratedBy (db: Queryable, moderatorId: number, page: Page): Promise<ModerationRow[]> {
  return db.query<ModerationRow>(sql`
    SELECT ${LIST_ITEM_COLUMNS}, r.desired_completion_date
    FROM ${LIST_ITEM_FROM}
    WHERE r.moderated_by = ${moderatorId}
    ORDER BY r.moderated_at DESC, r.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}
