import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { alertPlace } from '../../src/help/index.js'
import { gridPoint } from '../../src/lib/grid.js'
import { alertsOf, approvedAt, newPlace, north, RoundDriver, setAvailability, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { startApp, testConfig, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

const GRID_METERS = 1000

for (const engine of engines()) {
  describe(`alerts under LOCATION_PRIVACY=grid (${engine})`, () => {
    const overrides = { alerts: TEST_ALERTS, locationPrivacy: 'grid', mapGridMeters: GRID_METERS } as const
    let t: TestApp
    let moderator: Account

    before(async () => {
      t = await startApp(engine, overrides, { alertTickMs: 0 })
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    it('tests each volunteer\'s radius, and measures distance_meters, from the request\'s grid point (docs/privacy.md)', async () => {
      // A request 400 m north of its cell's centre (still inside the 1000 m cell).
      const centre = gridPoint(newPlace().latitude, 13.405, GRID_METERS)
      const exact = north(centre, 400)
      assert.deepEqual(gridPoint(exact.latitude, exact.longitude, GRID_METERS), centre)
      const requester = await volunteerAt(t, centre, 3000, { on_duty: false })
      // At the exact point with the smallest radius: alerted under `exact`, 400 m from the grid point.
      const atTheDoor = await volunteerAt(t, exact, 0, { radius_meters: 100 })
      // 900 m south of the centre: 1300 m from the exact point, beyond their 1000 m radius under `exact`.
      const south = await volunteerAt(t, centre, -900, { radius_meters: 1000 })

      const driver = new RoundDriver(t, TEST_ALERTS, alertPlace(testConfig(overrides)))
      const requestId = await approvedAt(t, exact, requester, moderator)
      await driver.run()

      assert.deepEqual(await alertsOf(t, atTheDoor, requestId), [])
      const alerts = await alertsOf(t, south, requestId)
      assert.equal(alerts.length, 1)
      assert.equal(alerts[0]!.data.distance_meters, 900)
    })

    it('judges catch-ups (docs/api/help.md › Catch-up alerts) from the grid point too', async () => {
      const centre = gridPoint(newPlace().latitude, 13.405, GRID_METERS)
      const exact = north(centre, 400)
      const requester = await volunteerAt(t, centre, 3000, { on_duty: false })
      const atTheDoor = await volunteerAt(t, exact, 0, { radius_meters: 100, on_duty: false })
      const south = await volunteerAt(t, centre, -900, { radius_meters: 1000, on_duty: false })
      const driver = new RoundDriver(t, TEST_ALERTS, alertPlace(testConfig(overrides)))
      const requestId = await approvedAt(t, exact, requester, moderator)
      await driver.run()
      for (const volunteer of [atTheDoor, south]) await setAvailability(t, volunteer, { on_duty: true })
      await driver.run()

      assert.deepEqual(await alertsOf(t, atTheDoor, requestId), [])
      assert.deepEqual((await alertsOf(t, south, requestId)).map((a) => a.data.distance_meters), [900])
    })

    it('under exact (the default) the same volunteers are judged from the exact point', async () => {
      const centre = gridPoint(newPlace().latitude, 13.405, GRID_METERS)
      const exact = north(centre, 400)
      const requester = await volunteerAt(t, centre, 3000, { on_duty: false })
      const atTheDoor = await volunteerAt(t, exact, 0, { radius_meters: 100 })
      const south = await volunteerAt(t, centre, -900, { radius_meters: 1000 })

      const driver = new RoundDriver(t, TEST_ALERTS, alertPlace(testConfig({ ...overrides, locationPrivacy: 'exact' })))
      const requestId = await approvedAt(t, exact, requester, moderator)
      await driver.run()

      assert.equal((await alertsOf(t, atTheDoor, requestId))[0]?.data.distance_meters, 0)
      assert.deepEqual(await alertsOf(t, south, requestId), [])
    })
  })
}
