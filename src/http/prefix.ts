/** Where every API path starts (interface.md): shared by the routes, the document and the rate limits. */
export const API_PREFIX = '/api/v1'
