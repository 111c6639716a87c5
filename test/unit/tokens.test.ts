import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createSigner } from 'fast-jwt'
import { accessTokens, hashRefreshToken, newRefreshToken, newSecret } from '../../src/lib/tokens.js'

const SECRET = 'unit-test-secret-that-is-long-enough-42'
const ISSUER = 'volunteer-coordination-service'
const tokens = accessTokens(SECRET, 900)

const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('access tokens', () => {
  it('a token it signed verifies to its user id, with the configured lifetime', () => {
    const token = tokens.sign(42)
    assert.deepEqual(tokens.verify(token), { userId: 42, expiresAt: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp * 1000 })
    assert.equal(tokens.ttlSeconds, 900)
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    assert.equal(payload.sub, '42')
    assert.equal(payload.iss, ISSUER)
    assert.equal(payload.exp - payload.iat, 900)
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())
    assert.equal(header.alg, 'HS256')
  })

  it('refuses alg none', () => {
    const now = Math.floor(Date.now() / 1000)
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: '1', iss: ISSUER, iat: now, exp: now + 900 })}.`
    assert.equal(tokens.verify(unsigned), undefined)
    assert.equal(tokens.verify(unsigned.slice(0, -1)), undefined)
  })

  it('refuses another algorithm, even with the right secret', () => {
    const hs512 = createSigner({ key: SECRET, algorithm: 'HS512', iss: ISSUER, expiresIn: 60_000 })({ sub: '1' })
    assert.equal(tokens.verify(hs512), undefined)
  })

  it('refuses a token signed with another secret', () => {
    assert.equal(tokens.verify(accessTokens('another-secret-that-is-long-enough-0', 900).sign(1)), undefined)
  })

  it('refuses an expired token', () => {
    const anHourAgo = Date.now() - 3_600_000
    const expired = createSigner({ key: SECRET, algorithm: 'HS256', iss: ISSUER, expiresIn: 60_000, clockTimestamp: anHourAgo })({ sub: '1' })
    assert.equal(tokens.verify(expired), undefined)
  })

  it('refuses malformed tokens', () => {
    const good = tokens.sign(1)
    const [header, payload] = good.split('.')
    for (const token of ['', 'abc', 'a.b.c', `${header}.${payload}`, `${header}.${payload}.AAAA`, `${good}x`, `${header}.e30.${good.split('.')[2]}`]) {
      assert.equal(tokens.verify(token), undefined, token)
    }
  })

  it('refuses a token from another issuer, or with no issuer', () => {
    const foreign = createSigner({ key: SECRET, algorithm: 'HS256', iss: 'someone-else', expiresIn: 60_000 })({ sub: '1' })
    assert.equal(tokens.verify(foreign), undefined)
    const anonymous = createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: 60_000 })({ sub: '1' })
    assert.equal(tokens.verify(anonymous), undefined)
  })

  it('refuses a token that never expires', () => {
    const forever = createSigner({ key: SECRET, algorithm: 'HS256', iss: ISSUER })({ sub: '1' })
    assert.equal(tokens.verify(forever), undefined)
  })

  it('refuses a subject that is not a positive integer id', () => {
    const sign = createSigner({ key: SECRET, algorithm: 'HS256', iss: ISSUER, expiresIn: 60_000 })
    for (const sub of ['0', '-1', 'abc', '1.5', '99999999999999999999', '']) assert.equal(tokens.verify(sign({ sub })), undefined, sub)
    assert.equal(tokens.verify(sign({ sub: 1 })), undefined, 'a number, not a string')
    assert.equal(tokens.verify(sign({})), undefined, 'no subject')
  })
})

describe('refresh tokens and secrets', () => {
  it('a refresh token is 256 random bits in base64url; its hash is stable and is not the token', () => {
    const token = newRefreshToken()
    assert.match(token, /^[\w-]{43}$/)
    assert.equal(Buffer.from(token, 'base64url').length, 32)
    assert.notEqual(newRefreshToken(), token)
    assert.equal(hashRefreshToken(token), hashRefreshToken(token))
    assert.notEqual(hashRefreshToken(token), token)
    assert.notEqual(hashRefreshToken(newRefreshToken()), hashRefreshToken(token))
  })

  it('a generated signing secret is long enough for JWT_SECRET\'s rule', () => {
    assert.ok(newSecret().length >= 32)
    assert.notEqual(newSecret(), newSecret())
  })
})

describe('access tokens on an injected clock', () => {
  it('are issued at the clock\'s time and refused once it passes their lifetime', () => {
    let now = Date.parse('2030-01-01T00:00:00Z')
    const clocked = accessTokens(SECRET, 900, { now: () => new Date(now) })
    const token = clocked.sign(7)
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    assert.equal(payload.iat, now / 1000)
    assert.equal(payload.exp, now / 1000 + 900)
    now += 900_000
    assert.deepEqual(clocked.verify(token), { userId: 7, expiresAt: now })
    now += 1
    assert.equal(clocked.verify(token), undefined)
    // The system clock is long before 2030: the token is valid there, so the refusal above was the clock's.
    assert.equal(tokens.verify(token)?.userId, 7)
  })
})
