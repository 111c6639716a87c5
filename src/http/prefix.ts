/** Where every API path starts (docs/api/conventions.md): shared by the routes, the document and the rate limits. */
export const API_PREFIX = '/api/v1'
