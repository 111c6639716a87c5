import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify'

interface Issue { keyword: string, instancePath: string, params: Record<string, unknown> }

/**
 * Path ids are digits only. Ajv's coercion would read `1e3`, `0x10` or ` 1` as numbers; here they are
 * what they look like, a non-numeric id (interface.md › Errors: `invalid request id` and the like).
 * Checked on the raw text before validation, for the routes that have integer path parameters.
 */
export function registerStrictParams (app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const properties = (route.schema?.params as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}
    const integers = Object.entries(properties).filter(([, schema]) => schema.type === 'integer').map(([name]) => name)
    if (integers.length === 0) return
    const check: preValidationHookHandler = async (request) => {
      const params = request.params as Record<string, string>
      const bad = integers.find((name) => !/^\d+$/.test(params[name] ?? ''))
      if (bad === undefined) return
      const issue: Issue = { keyword: 'type', instancePath: `/${bad}`, params: { type: 'integer' } }
      throw Object.assign(new Error(`invalid ${bad}`), { statusCode: 400, validation: [issue], validationContext: 'params' })
    }
    const existing = route.preValidation
    route.preValidation = existing === undefined ? check : [check, ...(Array.isArray(existing) ? existing : [existing])]
  })
}
