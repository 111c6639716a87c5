import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import ICAL from 'ical.js'
import { ADDRESS_HIDDEN_TEXT } from '../../src/help/requests/disclosure.js'
import { startApp, type TestApp } from '../helpers/app.js'
import { SERIES_ADDRESS } from '../helpers/disclosure-series.js'
import {
  CLIENT_ADDRESS, EXERCISES, ok, operationsAnswering, OWN_NUMBER_ONLY, REQUESTER_ADDRESS, REQUESTER_PHONE, setScene, VIEWERS, type Made, type Scene, type Seen, type ViewerName,
} from '../helpers/disclosure.js'
import { engines } from '../helpers/engines.js'

/**
 * docs/privacy.md › `ADDRESS_PRIVACY=parties` › Proof: what a stranger, a volunteer with a pending offer, the accepted volunteer, the
 * requester and a moderator each see of a request, under both ADDRESS_PRIVACY values, through every
 * operation whose answer can carry a request or a profile. The operations are read from the service's
 * OpenAPI document: one without an entry in EXERCISES fails the test, so a new route that returns a
 * request cannot go unchecked.
 */

/** Any of these in an answer's schema means it can carry a request (list item, detail, marker) or a profile. */
const CARRIERS = ['address', 'requester_name', 'requester', 'location', 'phone', 'contact_phone']

function checkRequest (scene: Scene, setting: string, viewer: ViewerName, { kind, made, item }: Extract<Seen, { made: Made }>): void {
  const hidden = setting === 'parties' && !scene.isParty(viewer, made.id)
  const where = `${viewer} on request ${made.id} (${kind})`
  if (kind === 'marker') {
    // A marker carries neither address nor name: nothing to shorten.
    for (const field of ['address', 'requester_name', 'requester', 'contact_phone']) assert.equal(field in item, false, where)
    return
  }
  if (hidden) {
    assert.equal(item.address, made.city ?? ADDRESS_HIDDEN_TEXT, where)
    assert.equal(item.address_hidden, true, where)
    if ('requester_name' in item) assert.equal(item.requester_name, 'Erna S.', where)
    if ('requester' in item) assert.deepEqual([item.requester.first_name, item.requester.last_name, item.requester.email], ['Erna', 'S.', null], where)
  } else {
    assert.equal(item.address, made.address, where)
    if (setting === 'parties' && kind === 'request' && 'requester_name' in item) assert.equal(item.address_hidden, false, where)
    if ('requester_name' in item) assert.equal(item.requester_name, 'Erna Schmidt', where)
    if ('requester' in item) assert.deepEqual([item.requester.last_name, item.requester.email], ['Schmidt', scene.requester.email], where)
  }
  if (setting === 'full') assert.equal('address_hidden' in item, false, `${where}: interface 1.0.1 unchanged under full`)
  // docs/api/help.md › Reading one request, under both settings: contact details for the parties only (the pending volunteer is none).
  if ('contact_phone' in item) assert.equal(item.contact_phone, scene.isParty(viewer, made.id) ? '+4930123456' : null, where)
}

function checkProfile (scene: Scene, setting: 'full' | 'parties', viewer: ViewerName, { item, contactShown }: Extract<Seen, { kind: 'profile' }>): void {
  assert.equal(item.phone, contactShown ? REQUESTER_PHONE : null, viewer)
  assert.equal(item.address, contactShown ? REQUESTER_ADDRESS : null, viewer)
  // Under parties the profile keeps the requester's last name and e-mail from those the request does (docs/privacy.md › `ADDRESS_PRIVACY=parties`).
  const named = contactShown || setting === 'full'
  assert.deepEqual([item.first_name, item.last_name, item.email], ['Erna', named ? 'Schmidt' : 'S.', named ? scene.requester.email : null], viewer)
}

/** docs/api/on-behalf.md › Coordinators and clients: a client's record, or a client's request, reaches only coordinators, moderators and admins, whole, under both settings. */
function checkClient (viewer: ViewerName, { item }: Extract<Seen, { kind: 'client' }>): void {
  assert.equal(viewer, 'moderator')
  assert.equal(item.address, CLIENT_ADDRESS, viewer)
  assert.equal(item.address_hidden ?? false, false, viewer)
}

/** docs/api/schedule.md › Series: a series reaches only its requester and moderators, whole, under both settings. */
function checkSeries (viewer: ViewerName, { item }: Extract<Seen, { kind: 'series' }>): void {
  assert.ok(viewer === 'requester' || viewer === 'moderator', viewer)
  assert.deepEqual([item.template.address, item.template.contact_phone], [SERIES_ADDRESS, '+4930123456'], viewer)
}

for (const engine of engines()) {
  for (const setting of ['full', 'parties'] as const) {
    describe(`what each viewer sees of a request, ADDRESS_PRIVACY=${setting} (${engine})`, () => {
      let t: TestApp
      let scene: Scene
      before(async () => {
        t = await startApp(engine, { addressPrivacy: setting })
        scene = await setScene(t)
      })
      after(() => t.close())

      it('every operation that can answer with a request or a profile, by each of the five viewers', async () => {
        const operations = await operationsAnswering(t, CARRIERS)
        assert.deepEqual(Object.keys(EXERCISES).sort(), operations, 'each such operation of the OpenAPI document has an exercise here')
        const exercised = new Set<string>()
        // Cancelling is last: the others then see the scene unchanged.
        const order = [...operations.filter((o) => !o.endsWith('/cancel')), ...operations.filter((o) => o.endsWith('/cancel'))]
        for (const operation of order) {
          for (const viewer of VIEWERS) {
            for (const seen of await EXERCISES[operation]!(t, scene, viewer)) {
              if (seen.kind === 'profile') checkProfile(scene, setting, viewer, seen)
              else if (seen.kind === 'series') checkSeries(viewer, seen)
              else if (seen.kind === 'client') checkClient(viewer, seen)
              else checkRequest(scene, setting, viewer, seen)
              exercised.add(operation)
            }
          }
        }
        assert.deepEqual([...exercised].sort(), operations.filter((op) => !OWN_NUMBER_ONLY.includes(op)), 'each operation answered with a request or profile at least once')
      })

      it('calendar feeds (docs/api/schedule.md): the requester\'s own never carries her address; a volunteer\'s only for the request assigned to them', async () => {
        const { A } = scene.requests
        for (const viewer of VIEWERS) {
          const made = await t.post('/users/me/calendar', undefined, scene.viewers[viewer].token)
          assert.equal(made.status, 201, made.text)
          const feed = await t.get(made.body.url.slice(made.body.url.indexOf('/calendar/')))
          assert.equal(feed.status, 200, feed.text)
          const events = new ICAL.Component(ICAL.parse(feed.text) as unknown[]).getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent))
          const seen = events.map((event) => [event.uid.replace(/@.*/, ''), event.location])
          // Of the scene's requests only A has a window, so only A is in a feed.
          const expected = viewer === 'requester' ? [[`request-${A.id}`, null]] : viewer === 'accepted volunteer' ? [[`request-${A.id}`, `${A.address}, ${A.city!}`]] : []
          assert.deepEqual(seen, expected, viewer)
          if (viewer === 'requester') assert.ok(!feed.text.includes('Lindenstra'), 'not even in another field')
        }
      })

      it('a non-party sees the city, or the sentence when there is none, and "Erna S."', async () => {
        const { A, B } = scene.requests
        const stranger = scene.viewers.stranger.token
        const detail = { A: await ok(t, 'GET', `/requests/${A.id}`, stranger), B: await ok(t, 'GET', `/requests/${B.id}`, stranger) }
        const expected = setting === 'parties' ? ['Berlin', ADDRESS_HIDDEN_TEXT, 'S.'] : [A.address, B.address, 'Schmidt']
        assert.deepEqual([detail.A.address, detail.B.address, detail.A.requester.last_name], expected)
      })
    })
  }
}
