import { Type, type Static } from 'typebox'
import { RequestListItem } from '../../help/requests/requests.schemas.js'

export const CalendarFeed = Type.Object({
  url: Type.String({ format: 'uri', description: 'The feed\'s secret address: whoever has it reads the feed, until a new one is made or the feed is deleted' }),
})

/** The token as it comes in the path; any text, since an unknown one is simply not found. */
export const FeedParams = Type.Object({ token: Type.String() })

/** The text/calendar answer, as the OpenAPI document describes it. */
export const FeedText = Type.String({ description: 'iCalendar (RFC 5545), lines ending in CRLF' })

export const ComingHelpItem = Type.Object({
  ...RequestListItem.properties,
  role: Type.Union([Type.Literal('requester'), Type.Literal('volunteer')], {
    description: '`requester`: the caller\'s own request; `volunteer`: the caller is its assigned volunteer',
  }),
  volunteer_name: Type.Union([Type.String(), Type.Null()], {
    description: 'On the caller\'s own request in progress: the assigned volunteer\'s name ("First Last"), who is coming (confirmed when `confirmed_at` is set); null otherwise',
  }),
  needs_confirmation: Type.Boolean({
    description: 'true when the caller is the assigned volunteer, has not confirmed, and the window starts within CONFIRM_BEFORE_HOURS (POST /requests/{id}/confirm)',
  }),
})
export type ComingHelpItem = Static<typeof ComingHelpItem>
