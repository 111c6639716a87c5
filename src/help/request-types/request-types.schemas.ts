import { Type, type Static } from 'typebox'
import { NullableString } from '../../http/schemas.js'
import { NEED_CODES, type NeedCode as NeedCodeValue } from '../needs/needs.js'

/** One code of GET /needs. */
export const NeedCode = Type.Unsafe<NeedCodeValue>({ type: 'string', enum: [...NEED_CODES] })
/** The needs of a request or of a type's defaults: codes, each once, in the table's order. */
export const Needs = Type.Array(NeedCode, { description: 'codes of GET /needs, each once, in the table\'s order' })

export const UpdateRequestTypeInput = Type.Object({
  default_needs: Type.Array(NeedCode, { uniqueItems: true, description: 'replaces the type\'s defaults' }),
})
export type UpdateRequestTypeInput = Static<typeof UpdateRequestTypeInput>
export const REQUEST_TYPE_MESSAGES = { id: 'invalid request type id', default_needs: 'invalid default_needs', 'default_needs.*': 'invalid default_needs' }

export const RequestType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: NullableString(),
  icon: NullableString(),
  is_active: Type.Boolean(),
  default_needs: Type.Array(NeedCode, { description: 'the needs its requests get when the requester says nothing (docs/api/visits.md › Needs and matching); the app ticks them' }),
})
export type RequestType = Static<typeof RequestType>
