import { Type, type Static } from 'typebox'
import { DateTime, Email, Id } from '../../http/schemas.js'
import { CARER_CAN } from './carers.repo.js'

const CanList = Type.Array(Type.Unsafe<typeof CARER_CAN[number]>({ type: 'string', enum: [...CARER_CAN] }), {
  description: 'What the carer may do for the person: `create` (ask for help for them), `follow` (see their requests and ' +
    'notifications; always included), `accept` (accept or turn down offers), `cancel`, `complete`',
})
const Status = Type.Unsafe<'invited' | 'accepted' | 'declined'>({ type: 'string', enum: ['invited', 'accepted', 'declined'] })

/** Declared loosely (strings) so that any value outside CARER_CAN is the service's 400 'invalid can'. */
export const InviteInput = Type.Object({
  email: Email,
  // Items unconstrained here: anything but those five names is the one text 'invalid can', whatever its type.
  can: Type.Array(Type.Unsafe<string>({ description: '`create`, `follow`, `accept`, `cancel` or `complete`' }), { maxItems: 10 }),
})
export type InviteInput = Static<typeof InviteInput>
export const INVITE_MESSAGES = { can: 'invalid can', 'can:required': 'invalid can' }

export const TrustedPerson = Type.Object({
  id: Id,
  email: Type.String({ description: 'The address invited, as given' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'The carer\'s name once they accepted; null before' }),
  can: CanList,
  status: Status,
  created_at: DateTime,
})
export type TrustedPerson = Static<typeof TrustedPerson>

export const ActingFor = Type.Object({
  id: Id,
  user_id: Id,
  name: Type.String({ description: 'The name of the person who invited the caller' }),
  can: CanList,
  status: Status,
})
export type ActingFor = Static<typeof ActingFor>

export const InvitationIdParams = Type.Object({ id: Id })
export const INVITATION_ID_MESSAGES = { id: 'invalid invitation id' }
