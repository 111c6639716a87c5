/** Who may call a route (docs/api/conventions.md, Auth column). */
/** 'optional': public, but a valid bearer token sets request.user (a signed-in caller's preferences); a bad one is ignored. */
export type AuthLevel = 'none' | 'optional' | 'user' | 'mod' | 'admin'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api/v1 route; checked when the route is added. */
    auth?: AuthLevel
    /** The 500 text of this route (docs/api/conventions.md › Everywhere), e.g. 'failed to get requests'. */
    failure?: string
    /**
     * The status of a server failure on this route when the interface gives it another than 500
     * (docs/api/conventions.md › Everywhere: a failure to load one request is 404 `request not found`). It covers
     * an unavailable database too, which other routes answer with 503.
     */
    failureStatus?: number
    /**
     * Texts for validation failures, keyed by field (`lat`) or by field and keyword (`lat:required`),
     * so the interface's exact texts are sent instead of generic ones.
     */
    messages?: Record<string, string>
    /** Marks an operation as beyond interface 1.0.1 in the OpenAPI document. */
    extension?: boolean
    /** False on a route that never reads the database: it cannot answer 503 `database unavailable`, and the document says so. */
    usesDatabase?: false
    /** The route reads a missing body as `{}` (its preValidation does so): the document marks the body optional. */
    optionalBody?: boolean
  }
}
