import { Type, type Static } from 'typebox'
import { DateTime, Id } from '../../http/schemas.js'

const NullableIdAs = (description: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], description })

/** docs/api/messaging.md › Texts › The inbox: a text the service did not understand, as coordinators and moderators see it. */
export const InboxText = Type.Object({
  id: Type.Integer(),
  received_at: DateTime,
  from: Type.String({ description: 'who sent it: "first_name last_name" of the person who confirmed the number, or of the client' }),
  text: Type.String({ description: 'the text as it arrived (its first 2000 characters)' }),
  request_id: NullableIdAs('the request the text was about, when its code named one; else null'),
  handled_by: NullableIdAs('who marked it dealt with: the first to do so; null while nobody has'),
})
export type InboxText = Static<typeof InboxText>

export const TextIdParams = Type.Object({ id: Id })
export const TEXT_ID_MESSAGES = { id: 'invalid text id' }
