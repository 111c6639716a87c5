import { Type, type Static } from 'typebox'
import { NullableDateTime, NullableString } from '../../http/schemas.js'
import { RequestListItem } from '../requests/requests.schemas.js'

/** A reason must hold at least one visible character. */
const Reason = Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' })

export const ApproveInput = Type.Object({ comment: Type.Optional(NullableString({ maxLength: 2000 })) })
export const RejectInput = Type.Object({ comment: Reason })

export const ModerationAction = Type.Object({
  action: Type.Unsafe<'approve' | 'reject'>({ type: 'string', enum: ['approve', 'reject'] }),
  comment: Type.Optional(NullableString({ maxLength: 2000 })),
})
export type ModerationAction = Static<typeof ModerationAction>

export const ModerationStatus = Type.Object({ status: Type.Unsafe<'approved' | 'rejected'>({ type: 'string', enum: ['approved', 'rejected'] }) })
export const ModerationResult = Type.Object({ success: Type.Boolean(), message: Type.String() })

export const COMMENT_REQUIRED = 'comment is required when rejecting'

/**
 * A request in the moderation lists: its list item and the date it is wanted by, so the queue can say it
 * without reading each request (which would record an access to its contact details).
 */
export const ModerationItem = Type.Object({ ...RequestListItem.properties, desired_completion_date: NullableDateTime })
export type ModerationItem = Static<typeof ModerationItem>
