import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, TestApp, uniqueEmail } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { assertAuthResponse, PASSWORD, registration } from '../helpers/auth.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  describe(`auth: register, login, refresh, logout, me (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('register answers 201 with an AuthResponse whose access token works', async () => {
      const body = registration()
      const res = await t.post('/auth/register', body)
      assertStatus(res, 201)
      assertAuthResponse(res.body, body.email as string)
      assert.equal(res.body.user.first_name, 'Ada')
      assert.equal(res.body.user.last_name, 'Lovelace')
      assert.equal(res.body.user.email_verified, false)
      const me = await t.get('/auth/me', res.body.access_token)
      assertStatus(me, 200)
      assert.deepEqual(me.body, { id: res.body.user.id, email: body.email })
    })

    it('register stores the e-mail trimmed and in lower case; login ignores case', async () => {
      const email = uniqueEmail('Mixed.Case')
      const shouted = `  ${email.toUpperCase()} `
      const res = await t.post('/auth/register', registration({ email: shouted }))
      assertStatus(res, 201)
      assert.equal(res.body.user.email, email.toLowerCase())
      const login = await t.post('/auth/login', { email: email.toUpperCase(), password: PASSWORD })
      assertStatus(login, 200)
      assert.equal(login.body.user.id, res.body.user.id)
    })

    it('an e-mail registered again, differing only in case, is 400 email already registered', async () => {
      const email = uniqueEmail('dup')
      assertStatus(await t.post('/auth/register', registration({ email })), 201)
      assertError(await t.post('/auth/register', registration({ email: email.toUpperCase() })), 400, 'email already registered')
      assertError(await t.post('/auth/register', registration({ email })), 400, 'email already registered')
    })

    it('register gives every new account the volunteer role and ignores fields it does not know', async () => {
      const res = await t.post('/auth/register', registration({ roles: ['admin'], role_id: 3, is_verified: true, is_blocked: true, email_verified: true }))
      assertStatus(res, 201)
      const token = res.body.access_token
      assert.deepEqual((await t.get('/users/me/roles', token)).body.map((role: any) => role.name), ['volunteer'])
      const profile = (await t.get('/users/me', token)).body
      assert.equal(profile.is_verified, false)
      assert.equal(profile.is_blocked, false)
      assert.equal(profile.email_verified, false)
    })

    it('register stores the optional fields', async () => {
      const res = await t.post('/auth/register', registration({ phone: '+4915112345678', latitude: 52.52, longitude: 13.405, address: 'Unter den Linden 1', city: 'Berlin', bio: 'Happy to help' }))
      assertStatus(res, 201)
      const profile = (await t.get('/users/me', res.body.access_token)).body
      assert.equal(profile.phone, '+4915112345678')
      assert.equal(profile.address, 'Unter den Linden 1')
      assert.equal(profile.city, 'Berlin')
      assert.equal(profile.bio, 'Happy to help')
      const [row] = await t.db.query<{ latitude: number, longitude: number }>('SELECT latitude, longitude FROM users WHERE id = $1', [res.body.user.id])
      assert.deepEqual(row, { latitude: 52.52, longitude: 13.405 })
    })

    describe('register validation: one below, at, and one above each limit', () => {
      const accepted: Array<[string, Record<string, unknown>]> = [
        ['password of 8 characters', { password: 'a'.repeat(8) }],
        ['password of 128 characters', { password: 'a'.repeat(128) }],
        ['first_name of 1 character', { first_name: 'A' }],
        ['first_name of 100 characters', { first_name: 'A'.repeat(100) }],
        ['last_name of 1 character', { last_name: 'B' }],
        ['last_name of 100 characters', { last_name: 'B'.repeat(100) }],
        ['bio of 500 characters', { bio: 'x'.repeat(500) }],
        ['empty bio', { bio: '' }],
        ['phone with plus and 2 digits', { phone: '+12' }],
        ['phone of 15 digits', { phone: '123456789012345' }],
        ['phone with plus and 15 digits', { phone: '+123456789012345' }],
        ['latitude -90 and longitude -180', { latitude: -90, longitude: -180 }],
        ['latitude 90 and longitude 180', { latitude: 90, longitude: 180 }],
        ['latitude 0 and longitude 0', { latitude: 0, longitude: 0 }],
      ]
      for (const [name, fields] of accepted) {
        it(`accepts ${name}`, async () => {
          assertStatus(await t.post('/auth/register', registration(fields)), 201)
        })
      }

      const refused: Array<[string, Record<string, unknown>, string]> = [
        ['a missing e-mail', { email: undefined }, 'email is required'],
        ['a malformed e-mail', { email: 'not-an-email' }, 'invalid email'],
        ['an e-mail without a domain dot', { email: 'someone@localhost' }, 'invalid email'],
        ['an e-mail that is a number', { email: 42 }, 'invalid email'],
        ['a missing password', { password: undefined }, 'password is required'],
        ['a password of 7 characters', { password: 'a'.repeat(7) }, 'password must be at least 8 characters long'],
        ['a password of 129 characters', { password: 'a'.repeat(129) }, 'password must be at most 128 characters long'],
        ['a missing first_name', { first_name: undefined }, 'first_name is required'],
        ['an empty first_name', { first_name: '' }, 'first_name must not be blank'],
        ['a blank first_name', { first_name: '   ' }, 'first_name must not be blank'],
        ['a first_name of 101 characters', { first_name: 'A'.repeat(101) }, 'first_name must be at most 100 characters long'],
        ['a missing last_name', { last_name: undefined }, 'last_name is required'],
        ['an empty last_name', { last_name: '' }, 'last_name must not be blank'],
        ['a blank last_name', { last_name: '\t' }, 'last_name must not be blank'],
        ['a last_name of 101 characters', { last_name: 'B'.repeat(101) }, 'last_name must be at most 100 characters long'],
        ['a bio of 501 characters', { bio: 'x'.repeat(501) }, 'bio must be at most 500 characters long'],
        ['a phone of one digit', { phone: '1' }, 'invalid phone'],
        ['a phone starting with 0', { phone: '+0123456' }, 'invalid phone'],
        ['a phone of 16 digits', { phone: '1234567890123456' }, 'invalid phone'],
        ['a phone with a space', { phone: '+49 151 1234' }, 'invalid phone'],
        ['a phone that is a number', { phone: 4915112345678 }, 'invalid phone'],
        ['latitude -90.0001', { latitude: -90.0001, longitude: 0 }, 'invalid latitude'],
        ['latitude 90.0001', { latitude: 90.0001, longitude: 0 }, 'invalid latitude'],
        ['longitude -180.0001', { latitude: 0, longitude: -180.0001 }, 'invalid longitude'],
        ['longitude 180.0001', { latitude: 0, longitude: 180.0001 }, 'invalid longitude'],
        ['latitude as a string', { latitude: '10', longitude: 10 }, 'invalid latitude'],
        ['longitude as a string', { latitude: 10, longitude: '10' }, 'invalid longitude'],
        ['latitude without longitude', { latitude: 10 }, 'latitude and longitude must be given together'],
        ['longitude without latitude', { longitude: 10 }, 'latitude and longitude must be given together'],
        ['first_name as a number', { first_name: 7 }, 'first_name must be of type string'],
      ]
      for (const [name, fields, text] of refused) {
        it(`refuses ${name}: 400 ${text}`, async () => {
          assertError(await t.post('/auth/register', registration(fields)), 400, text)
        })
      }
    })
  })
}
