import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startSecondInstance } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { DAY_MS } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { respond } from '../helpers/lifecycle.js'
import { requestInput } from '../helpers/requests.js'
import { SERIES_START, SERIES_ZONE, seriesSuite, type Occurrence } from '../helpers/series.js'

/**
 * docs/api/schedule.md › Series › Proof, series: validation, moderation once, occurrences to the horizon at the right
 * local time across daylight-saving changes (Europe/Berlin, clock moved), every_weeks and ends_on, return
 * trips, the horizon job on two instances at once and aborted mid-run, changes with and without accepted
 * offers, the end, rejection, and who may do what.
 */

for (const engine of engines()) {
  describe(`request series (${engine})`, () => {
    const suite = seriesSuite(engine)
    const { clock, job, input, create, approved, occurrences } = suite
    const starts = (list: Occurrence[], status = 'approved') => list.filter((o) => o.status === status).map((o) => o.window_start)

    it('refuses what docs/api/schedule.md refuses, with its texts', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ days: [] }, 'invalid days'],
        [{ days: ['mon', 'mon'] }, 'invalid days'],
        [{ days: ['monday'] }, 'invalid days'],
        [{ start_time: '7:30' }, 'invalid start_time'],
        [{ start_time: '24:00' }, 'invalid start_time'],
        [{ duration_minutes: 14 }, 'invalid duration_minutes'],
        [{ duration_minutes: 721 }, 'invalid duration_minutes'],
        [{ every_weeks: 5 }, 'invalid every_weeks'],
        [{ starts_on: '2027-03-14' }, 'invalid starts_on'],
        [{ starts_on: '2027-02-30' }, 'invalid starts_on'],
        [{ ends_on: '2027-03-16' }, 'invalid ends_on'],
        [{ ends_on: '2029-03-17' }, 'invalid ends_on'],
        [{ return_time: '10:29' }, 'invalid return_time'],
        [{ return_time: '22:00' }, 'invalid return_time'],
        [{ time_zone: 'Mars/Olympus' }, 'invalid time_zone'],
        [{ template: requestInput({ latitude: 91 }) }, 'invalid latitude'],
        [{ template: requestInput({ request_type_id: 999 }) }, 'invalid request type'],
      ]
      for (const [overrides, error] of cases) assertError(await suite.t.post('/request-series', input(overrides), requester.token), 400, error)
      assertStatus(await suite.t.post('/request-series', input({ ends_on: '2029-03-16', return_time: '10:30' }), requester.token), 201)
      // Today in the series' zone: at 23:30 UTC on the 15th it is already the 16th in Berlin.
      clock.set(new Date('2027-03-15T23:30:00Z'))
      assertStatus(await suite.t.post('/request-series', input({ starts_on: '2027-03-15', time_zone: 'UTC' }), requester.token), 201)
      assertError(await suite.t.post('/request-series', input({ starts_on: '2027-03-15' }), requester.token), 400, 'invalid starts_on')
    })

    it('is created pending; approval creates the occurrences to the horizon at 07:30 local across the spring change, with return trips', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const series = await create(requester, { return_time: '12:00' })
      assert.deepEqual([series.status, series.days, series.every_weeks, series.time_zone, series.ends_on, series.template.auto_accept_preferred],
        ['pending_moderation', ['tue', 'thu'], 1, SERIES_ZONE, null, false])
      const pending = await suite.t.get('/moderation/series/pending?limit=100', suite.moderator.token)
      assert.ok(pending.body.some((s: { id: number }) => s.id === series.id))
      assert.deepEqual(await occurrences(requester, series.id), [])
      const active = await suite.t.post(`/moderation/series/${series.id as number}/approve`, {}, suite.moderator.token)
      assert.equal(active.body.status, 'active')
      const list = await occurrences(requester, series.id)
      // 28 days from 10:00 on Monday 15 March: Tuesdays and Thursdays 16 March to 8 April; 07:30 is 06:30Z in winter, 05:30Z in summer.
      assert.deepEqual(list.filter((o) => !o.title.startsWith('Return: ')).map((o) => o.window_start), [
        '2027-03-16T06:30:00.000Z', '2027-03-18T06:30:00.000Z', '2027-03-23T06:30:00.000Z', '2027-03-25T06:30:00.000Z',
        '2027-03-30T05:30:00.000Z', '2027-04-01T05:30:00.000Z', '2027-04-06T05:30:00.000Z', '2027-04-08T05:30:00.000Z',
      ])
      const back = list.filter((o) => o.title === 'Return: Lift to dialysis')
      assert.equal(back.length, 8)
      assert.deepEqual([back[0]!.window_start, back[0]!.window_end, back[7]!.window_start], ['2027-03-16T11:00:00.000Z', '2027-03-16T14:00:00.000Z', '2027-04-08T10:00:00.000Z'])
      const detail = await suite.t.get(`/requests/${back[0]!.id}`, requester.token)
      assert.deepEqual([detail.body.return_of, detail.body.status, detail.body.desired_completion_date, detail.body.series_id],
        [list[0]!.id, 'approved', '2027-03-16T14:00:00.000Z', series.id])
      // The job takes the series again when its next occurrence, Tuesday 13 April, comes within the horizon.
      const progress = await suite.t.db.query<{ created_until: Date }>('SELECT created_until FROM request_series WHERE id = $1', [series.id])
      assert.equal(progress[0]!.created_until.toISOString(), '2027-04-13T05:30:00.000Z')
      // Each occurrence's alert rounds start at once, as an approval's do.
      const rounds = await suite.t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = ANY($1::bigint[])', [list.map((o) => o.id)])
      assert.equal(rounds[0]!.n, 16)

      // Late October: the job keeps 07:30 local across the autumn change (05:30Z before, 06:30Z after).
      clock.set(new Date('2027-10-20T09:00:00Z'))
      assert.equal(await job().runOnce(), 16)
      const autumn = (await occurrences(requester, series.id)).filter((o) => o.window_start > '2027-10' && !o.title.startsWith('Return'))
      assert.deepEqual(autumn.slice(0, 4).map((o) => o.window_start), ['2027-10-21T05:30:00.000Z', '2027-10-26T05:30:00.000Z', '2027-10-28T05:30:00.000Z', '2027-11-02T06:30:00.000Z'])
      assert.equal(await job().runOnce(), 0, 'nothing twice')
    })

    it('every_weeks counts from the week of starts_on; ends_on is the last day', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const series = await approved(requester, { days: ['mon', 'wed'], every_weeks: 2, starts_on: '2027-03-17', ends_on: '2027-04-11' })
      assert.deepEqual(starts(await occurrences(requester, series.id)), ['2027-03-17T06:30:00.000Z', '2027-03-29T05:30:00.000Z', '2027-03-31T05:30:00.000Z'])
      clock.set(new Date('2027-04-20T09:00:00Z'))
      await job().runOnce()
      assert.equal((await occurrences(requester, series.id)).length, 3)
    })

    it('the horizon job on two instances at once creates each occurrence once; a run aborted mid-way leaves none twice and the next completes', async () => {
      clock.set(SERIES_START)
      const requesters = [await suite.t.register(), await suite.t.register(), await suite.t.register()]
      const made: any[] = []
      for (const requester of requesters) made.push(await approved(requester))
      const count = async () => await Promise.all(requesters.map(async (r, i) => (await occurrences(r, made[i].id)).length))
      assert.deepEqual(await count(), [8, 8, 8])
      clock.advance(14 * DAY_MS)
      const second = engine === 'postgres' ? await startSecondInstance(suite.t, { timeZone: SERIES_ZONE }, { alertTickMs: 0, clock }) : suite.t
      try {
        const created = await Promise.all([job().runOnce(), job(second).runOnce()])
        assert.equal(created[0] + created[1], 12)
      } finally {
        if (second !== suite.t) await second.close()
      }
      assert.deepEqual(await count(), [12, 12, 12])

      // The second series' transaction fails after its first new occurrence: it rolls back, the others go on.
      clock.advance(7 * DAY_MS)
      const victim = made[1].id as number
      await suite.t.db.query(`CREATE FUNCTION fail_occurrence() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.series_id = ${victim} AND EXISTS (SELECT 1 FROM requests WHERE series_id = ${victim} AND window_start > '2027-04-26') THEN
            RAISE EXCEPTION 'killed mid-run';
          END IF;
          RETURN NEW;
        END $$`)
      await suite.t.db.query('CREATE TRIGGER fail_occurrence BEFORE INSERT ON requests FOR EACH ROW EXECUTE FUNCTION fail_occurrence()')
      try {
        assert.equal(await job().runOnce(), 4)
      } finally {
        await suite.t.db.query('DROP TRIGGER fail_occurrence ON requests')
        await suite.t.db.query('DROP FUNCTION fail_occurrence()')
      }
      assert.deepEqual(await count(), [14, 12, 14])
      assert.equal(await job().runOnce(), 2, 'the next run completes')
      const twice = await suite.t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT series_id, window_start FROM requests
        WHERE series_id = ANY($1::bigint[]) GROUP BY 1, 2 HAVING count(*) > 1) d`, [made.map((s) => s.id)])
      assert.deepEqual([await count(), twice[0]!.n], [[14, 14, 14], 0])
    })

    it('a change: unaccepted occurrences it touches are replaced, accepted ones kept; a new template goes back to moderation', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const series = await approved(requester)
      const [first, second] = await occurrences(requester, series.id)
      const pendingVolunteer = await suite.t.register()
      const acceptedVolunteer = await suite.t.register()
      await respond(suite.t, first!.id, pendingVolunteer)
      const offer = await respond(suite.t, second!.id, acceptedVolunteer)
      assertStatus(await suite.t.post(`/requests/${second!.id}/responses/${offer}/accept`, undefined, requester.token), 200)

      const changed = await suite.t.patch(`/request-series/${series.id as number}`, { start_time: '08:00', days: ['thu', 'tue'] }, requester.token)
      assert.deepEqual([changed.status, changed.body.status, changed.body.start_time], [200, 'active', '08:00'])
      const after = await occurrences(requester, series.id)
      const firstNow = after.find((o) => o.id === first!.id)!
      const cancelled = await suite.t.get(`/requests/${first!.id}`, requester.token)
      assert.deepEqual([firstNow.status, cancelled.body.cancel_reason], ['cancelled', 'series_changed'])
      const told = await suite.t.get('/notifications', pendingVolunteer.token)
      assert.ok(told.body.some((n: { type: string, request_id: number }) => n.type === 'request_cancelled' && n.request_id === first!.id))
      // The accepted 18 March stays at 07:30 and is not doubled at 08:00; every other day moves to 08:00.
      assert.equal(after.find((o) => o.id === second!.id)!.status, 'in_progress')
      assert.deepEqual(starts(after), ['2027-03-16T07:00:00.000Z', '2027-03-23T07:00:00.000Z', '2027-03-25T07:00:00.000Z',
        '2027-03-30T06:00:00.000Z', '2027-04-01T06:00:00.000Z', '2027-04-06T06:00:00.000Z', '2027-04-08T06:00:00.000Z'])

      // Only ends_on: the occurrences it keeps are not touched, the last is cancelled.
      const approvedIds = async () => (await occurrences(requester, series.id)).filter((o) => o.status === 'approved').map((o) => o.id)
      const before = await approvedIds()
      assertStatus(await suite.t.patch(`/request-series/${series.id as number}`, { ends_on: '2027-04-06' }, requester.token), 200)
      assert.deepEqual(await approvedIds(), before.slice(0, 6))

      // New text: back to moderation, coming unaccepted occurrences cancelled, none until approved again.
      const text = await suite.t.patch(`/request-series/${series.id as number}`, { template: requestInput({ title: 'Lift to the clinic' }) }, requester.token)
      assert.equal(text.body.status, 'pending_moderation')
      assert.deepEqual(starts(await occurrences(requester, series.id)), [])
      clock.advance(DAY_MS)
      await job().runOnce()
      assert.deepEqual(starts(await occurrences(requester, series.id)), [])
      assertStatus(await suite.t.post(`/moderation/series/${series.id as number}/approve`, { comment: 'fine' }, suite.moderator.token), 200)
      const again = (await occurrences(requester, series.id)).filter((o) => o.status === 'approved')
      assert.deepEqual([again.length, again[0]!.title, again[0]!.window_start], [5, 'Lift to the clinic', '2027-03-23T07:00:00.000Z'])
      assert.equal((await occurrences(requester, series.id)).find((o) => o.id === second!.id)!.status, 'in_progress')
    })

    it('the end cancels every coming occurrence, accepted ones too, telling their volunteers; past ones stay', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const series = await approved(requester)
      const [, second] = await occurrences(requester, series.id)
      const volunteer = await suite.t.register()
      const offer = await respond(suite.t, second!.id, volunteer)
      assertStatus(await suite.t.post(`/requests/${second!.id}/responses/${offer}/accept`, undefined, requester.token), 200)
      clock.set(new Date('2027-03-17T09:00:00Z'))
      const ended = await suite.t.post(`/request-series/${series.id as number}/end`, undefined, suite.moderator.token)
      assert.deepEqual([ended.status, ended.body.status], [200, 'ended'])
      const list = await occurrences(requester, series.id)
      assert.deepEqual(list.map((o) => o.status), ['approved', ...Array(7).fill('cancelled')])
      const told = await suite.t.get('/notifications', volunteer.token)
      assert.ok(told.body.some((n: { type: string, request_id: number }) => n.type === 'request_cancelled' && n.request_id === second!.id))
      clock.advance(30 * DAY_MS)
      await job().runOnce()
      assert.equal((await occurrences(requester, series.id)).length, 8)
    })
  })
}
