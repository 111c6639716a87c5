import { Ajv, type ErrorObject } from 'ajv'
import type { FastifySchemaCompiler } from 'fastify'
import { addFormats } from '../lib/ajv-formats.js'
import { DECIMAL, DECIMAL_INTEGER } from '../lib/decimal.js'

interface Validate {
  (data: unknown): boolean
  errors?: ErrorObject[] | null | undefined
}

/** Plain decimal notation (lib/decimal.ts); Ajv's own coercion would also read "0x10" as 16, " " as 0 and "" as 0. */
const SYNTAX: Record<string, RegExp> = { integer: DECIMAL_INTEGER, number: DECIMAL }

/**
 * Path and query parameters are text; a numeric one must be written in plain decimals before Ajv
 * coerces it, so `/users/0x10` is a 400 `invalid user id` rather than user 16.
 */
function decimalsOnly (schema: { properties?: Record<string, { type?: unknown }> }, validate: Validate): Validate {
  const numeric = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const syntax = typeof property.type === 'string' ? SYNTAX[property.type] : undefined
    return syntax === undefined ? [] : [{ name, type: property.type as string, syntax }]
  })
  if (numeric.length === 0) return validate
  const check: Validate = (data) => {
    for (const { name, type, syntax } of numeric) {
      const value = (data as Record<string, unknown> | null)?.[name]
      if (typeof value === 'string' && !syntax.test(value)) {
        check.errors = [{ keyword: 'type', instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, params: { type }, message: `must be ${type}` }]
        return false
      }
    }
    const valid = validate(data)
    check.errors = validate.errors
    return valid
  }
  return check
}

/**
 * JSON bodies are typed exactly: "10" is not a number (docs/api/conventions.md › Everywhere). Path and query
 * parameters are text by nature and are parsed into their declared types. Unknown body fields are
 * ignored: dropped before the handler sees them, never written (`removeAdditional: 'all'`). Body
 * schemas therefore do not say `additionalProperties: false`, so the OpenAPI document allows them too.
 * (With 'all', a body schema must not rely on anyOf/oneOf branches of objects: each would drop the others' fields.)
 */
export function schemaCompiler (): FastifySchemaCompiler<unknown> {
  const common = { removeAdditional: true, useDefaults: true, allErrors: false, strict: false } as const
  const body = addFormats(new Ajv({ ...common, removeAdditional: 'all', coerceTypes: false }))
  const text = addFormats(new Ajv({ ...common, coerceTypes: true }))
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return body.compile(schema as object)
    return decimalsOnly(schema as object, text.compile(schema as object))
  }
}
