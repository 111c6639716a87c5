import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parsePage } from '../../src/http/pagination.js'

describe('parsePage (docs/api/conventions.md › Limits)', () => {
  it('defaults to limit 20, offset 0', () => {
    assert.deepEqual(parsePage({}), { limit: 20, offset: 0 })
  })

  it('takes a limit from 1 to 100', () => {
    for (const limit of [1, 2, 50, 99, 100]) assert.equal(parsePage({ limit: String(limit) }).limit, limit)
  })

  it('falls back to limit 20 for a missing, non-numeric or out-of-range value', () => {
    for (const limit of ['0', '101', '-1', 'abc', '', ' ', '5.5', '1e2', '0x10', '10abc', '99999999999999999999']) {
      assert.equal(parsePage({ limit }).limit, 20, JSON.stringify(limit))
    }
  })

  it('takes any offset >= 0', () => {
    for (const offset of [0, 1, 20, 1_000_000]) assert.equal(parsePage({ offset: String(offset) }).offset, offset)
  })

  it('falls back to offset 0 for a missing, non-numeric or negative value', () => {
    for (const offset of ['-1', 'abc', '', '2.5', '1e3', '99999999999999999999']) {
      assert.equal(parsePage({ offset }).offset, 0, JSON.stringify(offset))
    }
  })

  it('reads limit and offset independently', () => {
    assert.deepEqual(parsePage({ limit: '500', offset: '40' }), { limit: 20, offset: 40 })
    assert.deepEqual(parsePage({ limit: '5', offset: '-40' }), { limit: 5, offset: 0 })
  })
})
