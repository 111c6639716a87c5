import { Type, type Static } from 'typebox'
import { DateTime, NullableId } from '../../http/schemas.js'

import { ACCESS_FIELDS, type AccessField } from './access.repo.js'

const recordFields = {
  viewer_id: Type.Integer(),
  viewer_name: Type.String({ description: '"first_name last_name" of the viewer now ("Former user" once they erased their account)' }),
  fields: Type.Array(Type.Unsafe<AccessField>({ type: 'string', enum: [...ACCESS_FIELDS] }), {
    description: '`contact_phone`, `contact_notes`, `address` for a request; `phone`, `address` for a profile',
  }),
  at: DateTime,
}

/** One record of GET /requests/{id}/access-log: who was shown the request's contact details (or, under ADDRESS_PRIVACY=parties, its address). */
export const RequestAccessRecord = Type.Object({
  ...recordFields,
  viewer_role: Type.Unsafe<'assigned volunteer' | 'moderator' | 'admin' | 'coordinator' | 'carer'>({
    type: 'string',
    enum: ['assigned volunteer', 'moderator', 'admin', 'coordinator', 'carer'],
    description: 'the role that allowed the view; `coordinator`: on a client\'s request (docs/api/on-behalf.md › Coordinators and clients); `carer`: someone the requester trusts (§ 2)',
  }),
})
export type RequestAccessRecord = Static<typeof RequestAccessRecord>

/** One record of GET /users/me/access-log: who was shown the caller's profile phone or address. */
export const ProfileAccessRecord = Type.Object({
  ...recordFields,
  viewer_role: Type.Unsafe<'requester' | 'assigned volunteer' | 'moderator' | 'admin'>({
    type: 'string',
    enum: ['requester', 'assigned volunteer', 'moderator', 'admin'],
    description: 'the viewer\'s side of the shared in_progress request, or their role as moderator or admin',
  }),
  request_id: { ...NullableId, description: 'the shared in_progress request that allowed the view; null for moderators and admins' },
})
export type ProfileAccessRecord = Static<typeof ProfileAccessRecord>
