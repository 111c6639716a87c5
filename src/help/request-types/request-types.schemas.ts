import { Type, type Static } from 'typebox'
import { NullableString } from '../../http/schemas.js'

export const RequestType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: NullableString(),
  icon: NullableString(),
  is_active: Type.Boolean(),
})
export type RequestType = Static<typeof RequestType>
