import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { codeHasherFor, newCode, normaliseCode } from '../../src/lib/codes.js'

const SECRET = 'a signing secret that is long enough 0123456789'

describe('codes of docs/api/accounts.md › Getting back in (src/lib/codes.ts)', () => {
  it('are six digits, leading zeros kept, and spread over the whole range', () => {
    const codes = Array.from({ length: 20_000 }, newCode)
    for (const code of codes) assert.match(code, /^\d{6}$/)
    // 20 000 draws from a million: a leading zero about 2 000 times, and few repeats.
    const leadingZero = codes.filter((code) => code.startsWith('0')).length
    assert.ok(leadingZero > 1_500 && leadingZero < 2_500, String(leadingZero))
    assert.ok(new Set(codes).size > 19_500)
  })

  it('are read as typed or pasted: spaces and dashes dropped', () => {
    assert.equal(normaliseCode(' 123 456 '), '123456')
    assert.equal(normaliseCode('123-456'), '123456')
    assert.equal(normaliseCode('12345x'), '12345x')
  })

  it('match only their own hash: same code, account and purpose, under the same key', () => {
    const hasher = codeHasherFor(SECRET)
    const stored = hasher.hash(7, 'sign_in', '012345')
    assert.match(stored, /^[\w-]{43}$/)
    assert.ok(hasher.matches(stored, 7, 'sign_in', '012345'))
    assert.ok(!hasher.matches(stored, 7, 'sign_in', '012346'))
    assert.ok(!hasher.matches(stored, 8, 'sign_in', '012345'))
    assert.ok(!hasher.matches(stored, 7, 'password_reset', '012345'))
    assert.ok(!codeHasherFor(`${SECRET}!`).matches(stored, 7, 'sign_in', '012345'))
    assert.ok(!hasher.matches('not a hash', 7, 'sign_in', '012345'))
    // A stored hash of something that is not a code never matches, even when the same text is typed.
    assert.ok(!hasher.matches(hasher.hash(7, 'sign_in', '12345'), 7, 'sign_in', '12345'))
  })
})
