/**
 * Settings read from environment variables by an annotated TypeBox schema: each leaf names its variable
 * (`env`) and carries its limits and `default`; an object groups leaves, an optional object is a group set
 * all together or not at all. The project's own settings are in src/config.ts; this file knows none of them.
 * Hand-made rather than env-schema or @fastify/env: their Ajv coercion reads PORT=0x50 as 80, 1e3 as 1000 and a blank as 0, and words refusals
 * its own way ("env/PORT must be <= 65535"), not as test/unit/config.test.ts pins them; nor do they have groups.
 */
import { Ajv } from 'ajv'
import { Type, type TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { addFormats } from './ajv-formats.js'

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>

/** A setting as the reader sees it: JSON Schema plus the annotations below. */
export interface Leaf extends Record<string, unknown> {
  /** Its environment variable. */
  env: string
  type?: string
  anyOf?: Leaf[]
  enum?: unknown[]
  const?: unknown
  items?: Leaf
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  /** The check in words, where the schema alone cannot say it (a pattern or format). */
  must?: string
  /** Never quoted in a message: it may be or hold a password. */
  secret?: boolean
  /** Spaces at either end belong to the value (a password). */
  untrimmed?: boolean
  /** The README's word for the default when there is none to show ('generated'). */
  unset?: string
  default?: unknown
  description?: string
}

// The API's own validator setup (src/http/validation.ts), so checks agree with it.
const ajv = addFormats(new Ajv({ strict: false }))

const isLeaf = (schema: TSchema): schema is TSchema & Leaf => typeof (schema as { env?: unknown }).env === 'string'
const childrenOf = (schema: TSchema): Array<[string, TSchema]> => Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {})

/** The leaves of a group, in schema order. */
export function leavesOf (schema: TSchema): Array<TSchema & Leaf> {
  if (isLeaf(schema)) return [schema]
  return childrenOf(schema).flatMap(([, child]) => leavesOf(child))
}

/** What a value must be, in words: "a whole number from 1 to 64", "auto or a whole number from 1 to 64". */
export function expected (schema: Leaf): string {
  if (schema.must !== undefined) return schema.must
  if (schema.anyOf !== undefined) {
    const words = schema.anyOf.map((member) => expected(member).replace(/^be /, ''))
    return `be ${words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}` : words.join('')}`
  }
  if (schema.enum !== undefined) return `be one of ${schema.enum.join(', ')}`
  if (schema.const !== undefined) return `be ${String(schema.const)}`
  if (schema.type === 'integer') return schema.maximum === undefined ? 'be a whole number' : `be a whole number from ${schema.minimum ?? 0} to ${schema.maximum}`
  if (schema.type === 'boolean') return 'be true or false'
  if (schema.minLength !== undefined && schema.maxLength !== undefined) return `be ${schema.minLength} to ${schema.maxLength} characters long`
  if (schema.minLength !== undefined) return `be at least ${schema.minLength} characters long`
  return 'be any text'
}

const NOT_PARSED = Symbol('not parsed')

/** Text to the schema's type (plain decimals only: no "0x50", "1e3" or "80.5"), checked against the schema. */
function parse (schema: Leaf, text: string): unknown {
  if (schema.anyOf !== undefined) {
    for (const member of schema.anyOf) {
      const value = parse(member, text)
      if (value !== NOT_PARSED) return value
    }
    return NOT_PARSED
  }
  let value: unknown = text
  if (schema.type === 'integer') value = /^\d+$/.test(text) ? Number(text) : NOT_PARSED
  else if (schema.type === 'boolean') value = text === 'true' ? true : text === 'false' ? false : NOT_PARSED
  return value !== NOT_PARSED && ajv.validate(schema, value) ? value : NOT_PARSED
}

function refuse (schema: Leaf, raw: string): never {
  throw new ConfigError(`${schema.env} must ${expected(schema)}${schema.secret === true ? '' : `, got "${raw}"`}`)
}

/** A leaf's value from the environment: its default when unset or empty, else the parsed text. */
function read (schema: TSchema & Leaf, env: Env): unknown {
  const raw = env[schema.env]
  const text = schema.untrimmed === true ? raw : raw?.trim()
  let value: unknown
  if (text === undefined || text === '') value = Value.Clone(schema.default)
  else if (schema.type === 'array' && schema.items !== undefined) {
    const items = text.split(',').map((item) => item.trim()).filter(Boolean)
    value = items.map((item) => {
      const parsed = parse(schema.items as Leaf, item)
      return parsed === NOT_PARSED ? refuse(schema, item) : parsed
    })
  } else {
    value = parse(schema, text)
    if (value === NOT_PARSED) refuse(schema, text)
  }
  return Type.IsCodec(schema) && value !== undefined ? Value.Decode(schema, value) : value
}

/**
 * An object of settings from the environment, each leaf checked alone (throws ConfigError with a message
 * meant for the operator); an optional object is a group, all set or all unset.
 */
export function readSettings (schema: TSchema, env: Env): Record<string, unknown> | undefined {
  if (Type.IsOptional(schema) && !isLeaf(schema)) {
    const leaves = leavesOf(schema)
    const set = leaves.filter((leaf) => (env[leaf.env]?.trim() ?? '') !== '')
    if (set.length === 0) return undefined
    if (set.length < leaves.length) throw new ConfigError(`${leaves.map((leaf) => leaf.env).join(' and ')} must be set together`)
  }
  const result: Record<string, unknown> = {}
  for (const [key, child] of childrenOf(schema)) result[key] = isLeaf(child) ? read(child, env) : readSettings(child, env)
  return result
}

export function deepFreeze<T> (value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
