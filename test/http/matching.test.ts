import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { alertsOf, approvedAt, newPlace, RoundDriver, TEST_ALERTS, volunteerAt, type Place } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/**
 * docs/api/visits.md › Needs and matching: who is alerted, who sees `suitable`, and who may offer, for every need alone and
 * together, languages, same_gender and driving checks that run out (the clock is moved, never waited for).
 */

// 23:30 in Berlin on 15 January 2027 (UTC+1): a driving check valid until the 15th runs out 30 minutes on.
const START = new Date('2027-01-15T22:30:00Z')
const MINUTE_MS = 60_000
const TIME_ZONE = 'Europe/Berlin'
// Every volunteer of a case alerted in one round, and none held back by the daily cap.
const ALERTS = { ...TEST_ALERTS, batch: 50 }

/** The volunteers of the table, each on duty at the file's place, with what they set in their profile. */
const VOLUNTEERS = {
  nothing: { profile: {}, driving: false },
  car: { profile: { capabilities: ['car'] }, driving: true },
  carUnchecked: { profile: { capabilities: ['car'] }, driving: false },
  wheelchair: { profile: { capabilities: ['wheelchair_vehicle'] }, driving: true },
  door: { profile: { capabilities: ['door_through_door'] }, driving: false },
  lifting: { profile: { capabilities: ['lifting'] }, driving: false },
  pets: { profile: { capabilities: ['ok_with_pets'] }, driving: false },
  woman: { profile: { gender: 'woman' }, driving: false },
  man: { profile: { gender: 'man' }, driving: false },
  turkish: { profile: { languages: ['tr'] }, driving: false },
  everything: {
    profile: { capabilities: ['car', 'wheelchair_vehicle', 'door_through_door', 'lifting', 'ok_with_pets'], gender: 'woman', languages: ['de', 'TR'] },
    driving: true,
  },
} as const
type Name = keyof typeof VOLUNTEERS
const NAMES = Object.keys(VOLUNTEERS) as Name[]

/** Each row: a request's needs and languages, who meets them, and what some of the others are told when they offer. */
const CASES: ReadonlyArray<{ needs: string[], languages?: string[], fit: Name[], told?: Partial<Record<Name, string>> }> = [
  { needs: [], fit: NAMES },
  { needs: ['car'], fit: ['car', 'wheelchair', 'everything'], told: { carUnchecked: 'car', nothing: 'car' } },
  { needs: ['wheelchair_vehicle'], fit: ['wheelchair', 'everything'], told: { car: 'wheelchair_vehicle' } },
  { needs: ['door_through_door'], fit: ['door', 'everything'], told: { lifting: 'door_through_door' } },
  { needs: ['lifting'], fit: ['lifting', 'everything'], told: { door: 'lifting' } },
  { needs: ['pets_at_home'], fit: ['pets', 'everything'], told: { nothing: 'pets_at_home' } },
  { needs: ['same_gender'], fit: ['woman', 'everything'], told: { man: 'same_gender', nothing: 'same_gender' } },
  { needs: [], languages: ['tr', 'ar'], fit: ['turkish', 'everything'], told: { nothing: 'language' } },
  { needs: ['lifting', 'car'], fit: ['everything'], told: { nothing: 'car, lifting', car: 'lifting', lifting: 'car' } },
  {
    needs: ['same_gender', 'pets_at_home', 'wheelchair_vehicle'],
    languages: ['tr'],
    fit: ['everything'],
    told: { nothing: 'wheelchair_vehicle, pets_at_home, same_gender, language', wheelchair: 'pets_at_home, same_gender, language', turkish: 'wheelchair_vehicle, pets_at_home, same_gender' },
  },
]

const refusal = (missing: string) => `you cannot offer this help: it needs ${missing}`

for (const engine of engines()) {
  describe(`needs and matching (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    let requester: Account
    let place: Place
    let rounds: RoundDriver
    const people = {} as Record<Name, Account>
    const checkIds = new Map<Name, number>()

    before(async () => {
      t = await startApp(engine, { timeZone: TIME_ZONE, accessTokenTtlSeconds: 86400, alerts: ALERTS }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
      requester = await t.register()
      assertStatus(await t.patch('/users/me', { gender: 'woman' }, requester.token), 200)
      place = newPlace()
      rounds = new RoundDriver(t, ALERTS, undefined, clock, { required: [], timeZone: TIME_ZONE })
      for (const [index, name] of NAMES.entries()) {
        const account = await volunteerAt(t, place, 100 + index * 10, { max_alerts_per_day: 50 })
        assertStatus(await t.patch('/users/me', VOLUNTEERS[name].profile, account.token), 200)
        if (VOLUNTEERS[name].driving) {
          // The car check of `car` runs out at midnight in Berlin, the others' hold.
          const validUntil = name === 'car' ? '2027-01-15' : null
          const res = await t.post(`/admin/users/${account.id}/checks`, { kind: 'driving', valid_until: validUntil, note: 'licence and insurance seen' }, moderator.token)
          assertStatus(res, 201)
          checkIds.set(name, res.body.id)
        }
        people[name] = account
      }
    })
    after(() => t.close())

    /** A request at the place with these needs, approved, its rounds run; its id. */
    async function requestWith (needs: string[], languages: string[] = []): Promise<number> {
      const id = await approvedAt(t, place, requester, moderator, { needs, languages })
      assert.ok(await rounds.run() >= 1)
      return id
    }

    it('the profile keeps capabilities in the table\'s order, wheelchair_vehicle with car, languages in small letters', async () => {
      const wheelchair = await t.get('/users/me', people.wheelchair.token)
      assert.deepEqual(wheelchair.body.capabilities, ['car', 'wheelchair_vehicle'])
      const everything = await t.get('/users/me', people.everything.token)
      assert.deepEqual([everything.body.languages, everything.body.gender], [['de', 'tr'], 'woman'])
      assert.deepEqual((await t.get('/users/me', people.car.token)).body.checks, ['driving'])
    })

    for (const { needs, languages = [], fit, told = {} } of CASES) {
      it(`needs ${JSON.stringify(needs)}, languages ${JSON.stringify(languages)}: alerted, suitable and may offer exactly ${fit.join(', ')}`, async () => {
        const id = await requestWith(needs, languages)
        const detail = await t.get(`/requests/${id}`, requester.token)
        // Stored in the table's order, whatever order they were given in.
        assert.deepEqual(detail.body.needs, ['car', 'wheelchair_vehicle', 'door_through_door', 'lifting', 'pets_at_home', 'same_gender'].filter((code) => needs.includes(code)))
        assert.deepEqual(detail.body.languages, languages)
        for (const name of NAMES) {
          const suits = fit.includes(name)
          const account = people[name]
          assert.equal((await alertsOf(t, account, id)).length, suits ? 1 : 0, `${name} alerted`)
          assert.equal((await t.get(`/requests/${id}`, account.token)).body.suitable, suits, `${name} suitable in the detail`)
          const near = await t.get(`/requests/nearby?lat=${place.latitude}&lon=${place.longitude}&radius=2000&limit=100`, account.token)
          assert.equal(near.body.find((item: { id: number }) => item.id === id)?.suitable, suits, `${name} suitable in nearby`)
          const only = await t.get(`/requests/nearby?lat=${place.latitude}&lon=${place.longitude}&radius=2000&limit=100&suitable=true`, account.token)
          assert.equal(only.body.some((item: { id: number }) => item.id === id), suits, `${name} nearby suitable=true`)
          const offer = await t.post(`/requests/${id}/responses`, {}, account.token)
          if (suits) {
            assertStatus(offer, 201)
            assert.equal(offer.body.suitable, true)
          } else {
            assert.equal(offer.status, 400, `${name} refused`)
            assert.match(offer.body.error, /^you cannot offer this help: it needs [a-z_, ]+$/)
            const expected = told[name]
            if (expected !== undefined) assert.equal(offer.body.error, refusal(expected), name)
          }
        }
      })
    }

    it('a driving check that runs out: car no longer counts for alerts, searches or offers; the offer made stays, marked unsuitable', async () => {
      const first = await requestWith(['car'])
      assert.equal((await alertsOf(t, people.car, first)).length, 1)
      const offer = await t.post(`/requests/${first}/responses`, {}, people.car.token)
      assertStatus(offer, 201)
      assert.equal(offer.body.suitable, true)
      clock.advance(31 * MINUTE_MS) // 00:01 on the 16th in Berlin, still the 15th in UTC
      const responses = await t.get(`/requests/${first}/responses`, requester.token)
      assert.deepEqual(responses.body.map((r: { volunteer_id: number, suitable: boolean }) => [r.volunteer_id, r.suitable]), [[people.car.id, false]])
      assert.equal((await t.get(`/requests/${first}`, people.car.token)).body.suitable, false)
      const second = await requestWith(['car'])
      assert.deepEqual(await alertsOf(t, people.car, second), [])
      assert.equal((await alertsOf(t, people.wheelchair, second)).length, 1, 'a check without an end still holds')
      assertError(await t.post(`/requests/${second}/responses`, {}, people.car.token), 400, refusal('car'))
      // A new check makes the car count again at once; a revoked one stops it.
      const renewed = await t.post(`/admin/users/${people.car.id}/checks`, { kind: 'driving', valid_until: '2027-12-31' }, moderator.token)
      assertStatus(renewed, 201)
      assert.equal((await t.get(`/requests/${second}`, people.car.token)).body.suitable, true)
      assertStatus(await t.post(`/admin/users/${people.wheelchair.id}/checks/${checkIds.get('wheelchair')}/revoke`, undefined, moderator.token), 200)
      assertError(await t.post(`/requests/${second}/responses`, {}, people.wheelchair.token), 400, refusal('car, wheelchair_vehicle'.split(', ')[0]!))
    })

    it('moderators and admins are not exempt when they offer', async () => {
      const id = await requestWith(['lifting'])
      assertError(await t.post(`/requests/${id}/responses`, {}, moderator.token), 400, refusal('lifting'))
      assertError(await t.post(`/requests/${id}/responses`, {}, t.admin.token), 400, refusal('lifting'))
    })

    it('same_gender needs the requester\'s gender; a default same_gender is dropped for one without it', async () => {
      const nobody = await t.register()
      const body = { request_type_id: 1, title: 'A lift to the doctor', description: 'Tuesday morning, back by noon', latitude: place.latitude, longitude: place.longitude, address: '1 Main Street', urgency: 'low' }
      assertError(await t.post('/requests', { ...body, needs: ['same_gender'] }, nobody.token), 400, 'set your gender in your profile first')
      const type = await t.request('PATCH', '/request-types/2', { body: { default_needs: ['same_gender', 'car'] }, token: t.admin.token })
      assertStatus(type, 200)
      assert.deepEqual(type.body.default_needs, ['car', 'same_gender'])
      assertError(await t.request('PATCH', '/request-types/2', { body: { default_needs: [] }, token: moderator.token }), 403, 'admin role required')
      const dropped = await t.post('/requests', { ...body, request_type_id: 2 }, nobody.token)
      assertStatus(dropped, 201)
      assert.deepEqual(dropped.body.needs, ['car'])
      const kept = await t.post('/requests', { ...body, request_type_id: 2 }, requester.token)
      assert.deepEqual(kept.body.needs, ['car', 'same_gender'])
      const none = await t.post('/requests', { ...body, request_type_id: 2, needs: [] }, requester.token)
      assert.deepEqual(none.body.needs, [])
      assertStatus(await t.request('PATCH', '/request-types/2', { body: { default_needs: [] }, token: t.admin.token }), 200)
    })

    it('bad needs, languages, capabilities and gender are refused with their texts', async () => {
      const body = { request_type_id: 1, title: 'A lift to the doctor', description: 'Tuesday morning, back by noon', latitude: 52.5, longitude: 13.4, address: '1 Main Street', urgency: 'low' }
      for (const needs of [['boat'], ['car', 'car'], 'car', [1]]) assertError(await t.post('/requests', { ...body, needs }, requester.token), 400, 'invalid needs')
      for (const languages of [['xx'], ['de', 'DE'], ['de', 'en', 'fr', 'tr', 'ar', 'pl'], 'de', ['deu']]) {
        assertError(await t.post('/requests', { ...body, languages }, requester.token), 400, 'invalid languages')
      }
      for (const capabilities of [['boat'], ['car', 'car'], 'car']) assertError(await t.patch('/users/me', { capabilities }, requester.token), 400, 'invalid capabilities')
      for (const languages of [['xx'], 'de']) assertError(await t.patch('/users/me', { languages }, requester.token), 400, 'invalid languages')
      for (const gender of ['female', 1, '']) assertError(await t.patch('/users/me', { gender }, requester.token), 400, 'invalid gender')
      assertError(await t.request('PATCH', '/request-types/1', { body: { default_needs: ['boat'] }, token: t.admin.token }), 400, 'invalid default_needs')
      assertError(await t.request('PATCH', '/request-types/999', { body: { default_needs: [] }, token: t.admin.token }), 404, 'request type not found')
    })

    it('GET /needs answers in a signed-in caller\'s profile locale before Accept-Language', async () => {
      const german = await t.register()
      assertStatus(await t.patch('/users/me', { locale: 'de' }, german.token), 200)
      const name = async (token: string | undefined, language: string) =>
        (await t.request('GET', '/needs', { token, headers: { 'accept-language': language } })).body[0].name
      assert.equal(await name(german.token, 'en'), 'Auto')
      assert.equal(await name(requester.token, 'de'), 'Car')
      assert.equal(await name(undefined, 'de'), 'Auto')
      assert.equal(await name('not-a-token', 'de'), 'Auto')
    })
  })
}
