import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Type } from 'typebox'
import { validationText } from '../../src/http/errors.js'
import { schemaCompiler } from '../../src/http/validation.js'
import { parseDecimal } from '../../src/lib/decimal.js'

const issue = (keyword: string, instancePath: string, params: Record<string, unknown> = {}) => ({ keyword, instancePath, params })

describe('validationText', () => {
  it('prefers the route\'s text for field:keyword, then for the field', () => {
    const messages = { lat: 'invalid latitude', 'lat:required': 'lat and lon are required' }
    assert.equal(validationText([issue('required', '', { missingProperty: 'lat' })], 'querystring', messages), 'lat and lon are required')
    assert.equal(validationText([issue('maximum', '/lat', { limit: 90 })], 'querystring', messages), 'invalid latitude')
  })

  it('otherwise writes a plain sentence naming the field, never the validator\'s wording', () => {
    assert.equal(validationText([issue('required', '', { missingProperty: 'title' })], 'body'), 'title is required')
    assert.equal(validationText([issue('minLength', '/title', { limit: 5 })], 'body'), 'title must be at least 5 characters long')
    assert.equal(validationText([issue('minLength', '/title', { limit: 1 })], 'body'), 'title must be at least 1 character long')
    assert.equal(validationText([issue('maxLength', '/bio', { limit: 500 })], 'body'), 'bio must be at most 500 characters long')
    assert.equal(validationText([issue('type', '/bio', { type: 'string,null' })], 'body'), 'bio must be of type string or null')
    assert.equal(validationText([issue('minimum', '/rating', { limit: 1 })], 'body'), 'rating must be at least 1')
    assert.equal(validationText([issue('maximum', '/rating', { limit: 5 })], 'body'), 'rating must be at most 5')
    assert.equal(validationText([issue('format', '/email', { format: 'email' })], 'body'), 'email must be a valid email')
    assert.equal(validationText([issue('enum', '/urgency', { allowedValues: ['low', 'high'] })], 'body'), 'urgency must be one of: low, high')
    assert.equal(validationText([issue('pattern', '/phone', {})], 'body'), 'invalid phone')
    assert.equal(validationText([issue('required', '/items/0', { missingProperty: 'name' })], 'body'), 'items.0.name is required')
  })

  it('a body that is not an object at all is invalid request body', () => {
    assert.equal(validationText([issue('type', '', { type: 'object' })], 'body'), 'invalid request body')
    assert.equal(validationText([], 'body'), 'invalid request body')
  })
})

describe('schemaCompiler: path and query numbers', () => {
  const compile = schemaCompiler()
  const params = Type.Object({ id: Type.Integer({ minimum: 1 }), lat: Type.Optional(Type.Number()) })
  const validate = compile({ schema: params, httpPart: 'params', method: 'GET', url: '/x' }) as (data: unknown) => boolean

  it('reads plain decimals into numbers', () => {
    const data: Record<string, unknown> = { id: '42', lat: '-12.5' }
    assert.equal(validate(data), true)
    assert.deepEqual(data, { id: 42, lat: -12.5 })
    assert.equal(validate({ id: '7', lat: '1e1' }), true)
  })

  it('refuses hex, blanks, signs and fractions where an integer is declared', () => {
    for (const id of ['0x10', ' ', '', ' 5', '+5', '1e3', '1.0', '1.5', 'abc']) {
      assert.equal(validate({ id }), false, JSON.stringify(id))
      assert.deepEqual((validate as any).errors[0].instancePath, '/id')
    }
  })

  it('refuses hex and blanks where a number is declared', () => {
    for (const lat of ['0x10', ' ', '', 'Infinity', 'NaN', '1,5']) assert.equal(validate({ id: '1', lat }), false, JSON.stringify(lat))
  })

  it('reads a declared number with the searches\' grammar (lib/decimal.ts), a leading plus included', () => {
    for (const lat of ['52.52', '-0.5', '+3', '.5', '7.', '1e2', '-1.5E-1', '007', '', ' ', ' 1', '0x10', 'NaN', 'Infinity', '1e', '.', '+', '1,5', '12abc']) {
      const data: Record<string, unknown> = { id: '1', lat }
      const number = parseDecimal(lat)
      assert.equal(validate(data), number !== undefined, JSON.stringify(lat))
      if (number !== undefined) assert.equal(data.lat, number, JSON.stringify(lat))
    }
  })

  it('leaves JSON bodies uncoerced', () => {
    const body = compile({ schema: Type.Object({ n: Type.Number() }), httpPart: 'body', method: 'POST', url: '/x' }) as (data: unknown) => boolean
    assert.equal(body({ n: '10' }), false)
    assert.equal(body({ n: 10 }), true)
  })
})
