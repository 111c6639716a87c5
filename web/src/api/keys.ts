/** The query keys of one request and its offers: one answer in the cache for every page that shows them. */
export const requestKey = (id: number) => ['get', '/api/v1/requests/{id}', id] as const
export const responsesKey = (id: number) => ['get', '/api/v1/requests/{id}/responses', id] as const
export const profileKey = (id: number | undefined) => ['get', '/api/v1/users/{id}', id] as const
/** The requester's own requests (Your requests, and the series page's dates). */
export const MY_REQUESTS = ['get', '/api/v1/requests/my'] as const
