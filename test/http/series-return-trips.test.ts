import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Account } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { DAY_MS } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'
import { seriesSuite } from '../helpers/series.js'

/**
 * Return trips of a series (docs/api.md › Series), with the clock moved: an outbound trip and its return are
 * made together, also when the horizon's end falls between them (at approval and in the horizon job), and the
 * return trip's title starts with the word for it in the requester's language.
 */

const ZONE = 'America/New_York'
/** Monday 7 June 2027, 21:26 in New York (UTC−4): 28 days on, the horizon ends between Monday's 20:30 trip and its 22:00 return. */
const START = new Date('2027-06-08T01:26:00Z')

interface Occurrence { id: number, title: string, window_start: string, series_id: number, return_of: number | null }

for (const engine of engines()) {
  describe(`a series' return trips (${engine})`, () => {
    const suite = seriesSuite(engine, ZONE, START)
    const { clock, job } = suite

    /** An approved series of `requester`'s: Mondays and Wednesdays 20:30 to 21:30 New York time, back at 22:00. */
    async function approved (requester: Account, title: string): Promise<number> {
      const body = { template: requestInput({ title }), days: ['mon', 'wed'], start_time: '20:30', duration_minutes: 60, return_time: '22:00', starts_on: '2027-06-08', time_zone: ZONE }
      const created = await suite.t.post('/request-series', body, requester.token)
      assertStatus(created, 201)
      assertStatus(await suite.t.post(`/moderation/series/${created.body.id as number}/approve`, {}, suite.moderator.token), 200)
      return created.body.id
    }

    /** The series' occurrences with their details (return_of is on the request's page), oldest first. */
    async function occurrences (requester: Account, seriesId: number): Promise<Occurrence[]> {
      const mine = await suite.t.get<Occurrence[]>('/requests/my?limit=100', requester.token)
      assertStatus(mine, 200)
      const ids = mine.body.filter((r) => r.series_id === seriesId).map((r) => r.id)
      const details = await Promise.all(ids.map(async (id) => (await suite.t.get<Occurrence>(`/requests/${id}`, requester.token)).body))
      return details.sort((a, b) => a.window_start.localeCompare(b.window_start))
    }

    /** Each outbound trip with the start of its return trip ('none' when it has none), and no return trip on its own. */
    function pairs (list: Occurrence[]): Array<[string, string]> {
      const outbound = list.filter((o) => o.return_of === null)
      const returns = list.filter((o) => o.return_of !== null)
      assert.ok(returns.every((r) => outbound.some((o) => o.id === r.return_of)), 'no return trip without its outbound trip')
      return outbound.map((o) => [o.window_start, returns.find((r) => r.return_of === o.id)?.window_start ?? 'none'])
    }

    it('makes an outbound trip and its return together when the horizon ends between them, at approval and in the horizon job', async () => {
      clock.set(START)
      const requester = await suite.t.register()
      const id = await approved(requester, 'Lift to the evening class')
      // The last pair at approval: Monday 5 July 20:30 (00:30Z on the 6th), within the horizon (01:26Z); its return at 22:00 (02:00Z) after it.
      const made = pairs(await occurrences(requester, id))
      assert.equal(made.length, 8)
      assert.deepEqual(made.at(-1), ['2027-07-06T00:30:00.000Z', '2027-07-06T02:00:00.000Z'])
      assert.ok(made.every(([, back]) => back !== 'none'), 'every outbound trip has its return trip')
      // The job takes the series again only when the next outbound trip (Wednesday 7 July 20:30) comes within the horizon.
      const progress = async () => (await suite.t.db.query<{ created_until: Date }>('SELECT created_until FROM request_series WHERE id = $1', [id]))[0]!.created_until.toISOString()
      assert.equal(await progress(), '2027-07-08T00:30:00.000Z')
      clock.advance(DAY_MS)
      assert.equal(await job().runOnce(), 0, 'nothing is due a day later')

      // Wednesday 9 June, 21:26: the horizon ends between Wednesday 7 July's trip and its return; the job makes both.
      clock.set(new Date(START.getTime() + 2 * DAY_MS))
      assert.equal(await job().runOnce(), 2)
      const later = pairs(await occurrences(requester, id))
      assert.deepEqual(later.at(-1), ['2027-07-08T00:30:00.000Z', '2027-07-08T02:00:00.000Z'])
      assert.ok(later.every(([, back]) => back !== 'none'), 'every outbound trip has its return trip')
      assert.equal(await progress(), '2027-07-13T00:30:00.000Z')
      assert.equal(await job().runOnce(), 0, 'nothing twice')
    })

    it('titles a return trip in its requester\'s language: "Return: " in English, "Rückfahrt: " in German', async () => {
      clock.set(START)
      const english = await suite.t.register()
      const german = await suite.t.register()
      assertStatus(await suite.t.patch('/users/me', { locale: 'de' }, german.token), 200)
      const titles = async (requester: Account, title: string) => [...new Set((await occurrences(requester, await approved(requester, title))).map((o) => o.title))].sort()
      assert.deepEqual(await titles(english, 'Lift to the evening class'), ['Lift to the evening class', 'Return: Lift to the evening class'])
      assert.deepEqual(await titles(german, 'Fahrt zum Abendkurs'), ['Fahrt zum Abendkurs', 'Rückfahrt: Fahrt zum Abendkurs'])
    })
  })
}
