/** The statuses of a volunteer's response, as a plain type: the repo types its rows with it, responses.schemas.ts its schema. */
export const RESPONSE_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'] as const
export type ResponseStatus = typeof RESPONSE_STATUSES[number]
