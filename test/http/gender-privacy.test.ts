import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { approvedAt, newPlace, RoundDriver, volunteerAt } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

/**
 * docs/privacy.md › Needs and gender: a person's gender is read only by the matching. This walks every GET operation of
 * the OpenAPI document, its path parameters filled with the ids of a scene where the person's gender decided things (her
 * same_gender request, a volunteer's offer and alert), as a stranger, a moderator and the person, and finds `gender`
 * only in the person's own profile and her export.
 */

const ALLOWED = new Set(['GET /users/me', 'GET /users/me/export'])

for (const engine of engines()) {
  describe(`gender is shown to the person alone (${engine})`, () => {
    let t: TestApp
    let person: Account
    let helper: Account
    let stranger: Account
    let moderator: Account
    const ids: Record<string, number> = {}

    before(async () => {
      t = await startApp(engine, {}, { alertTickMs: 0 })
      moderator = await t.registerWithRole('moderator')
      stranger = await t.register()
      person = await t.register()
      assertStatus(await t.patch('/users/me', { gender: 'another', capabilities: ['lifting'], languages: ['pl'] }, person.token), 200)
      const place = newPlace()
      helper = await volunteerAt(t, place, 100)
      assertStatus(await t.patch('/users/me', { gender: 'another' }, helper.token), 200)
      ids.request = await approvedAt(t, place, person, moderator, { needs: ['same_gender'], languages: [] })
      await new RoundDriver(t).run()
      const offer = await t.post(`/requests/${ids.request}/responses`, {}, helper.token)
      assertStatus(offer, 201)
      ids.response = offer.body.id
    })
    after(() => t.close())

    it('no read answers `gender` but the person\'s own profile and export', async () => {
      type Get = { responses?: Record<string, { content?: Record<string, unknown> }> }
      const doc = (await t.get('/openapi.json')).body as { paths: Record<string, { get?: Get }> }
      // A live event stream never ends, so it cannot be read whole here; it carries the notifications the inbox reads.
      const streams = (get: Get) => get.responses?.['200']?.content?.['text/event-stream'] !== undefined
      const reads = Object.entries(doc.paths).filter(([, operations]) => operations.get !== undefined && !streams(operations.get)).map(([path]) => path)
      assert.ok(reads.length > 30, 'the document lists the reads')
      const fill = (path: string): string => path
        .replace(/^\/api\/v1/, '')
        .replace(/\/users\/\{id\}/, `/users/${person.id}`)
        .replace(/\/requests\/\{id\}/, `/requests/${ids.request}`)
        .replace(/\{[a-z_]*id\}/g, String(ids.response))
      const seen: string[] = []
      for (const path of reads) {
        for (const [who, account] of [['stranger', stranger], ['moderator', moderator], ['person', person], ['helper', helper]] as const) {
          const url = fill(path) + (path.includes('nearby') || path.includes('bounds') || path.includes('map') ? '?lat=31&lon=13.4&min_lon=13&min_lat=30&max_lon=14&max_lat=32' : '')
          const res = await t.get(url, account.token)
          const text = res.text
          const has = /"gender"/.test(text)
          const operation = `GET ${path.replace(/^\/api\/v1/, '')}`
          if (has) seen.push(`${operation} as ${who}`)
          if (!ALLOWED.has(operation)) assert.equal(has, false, `${operation} as ${who} shows a gender`)
        }
      }
      assert.deepEqual(seen.sort(), ['GET /users/me as helper', 'GET /users/me as moderator', 'GET /users/me as person', 'GET /users/me as stranger',
        'GET /users/me/export as helper', 'GET /users/me/export as moderator', 'GET /users/me/export as person', 'GET /users/me/export as stranger'].sort())
      // Each of those is the caller's own: the person's gender is in hers alone.
      assert.equal((await t.get('/users/me', person.token)).body.gender, 'another')
      assert.equal((await t.get('/users/me/export', person.token)).body.profile.gender, 'another')
      assert.equal((await t.get('/users/me', stranger.token)).body.gender, null)
      assert.equal((await t.get(`/users/${person.id}`, moderator.token)).body.gender, undefined)
    })
  })
}
