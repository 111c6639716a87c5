/** The query keys of one request and its offers: one answer in the cache for every page that shows them. */
export const requestKey = (id: number) => ['get', '/api/v1/requests/{id}', id] as const
export const responsesKey = (id: number) => ['get', '/api/v1/requests/{id}/responses', id] as const
/** The kinds of help; they change rarely, so one answer serves an hour. */
