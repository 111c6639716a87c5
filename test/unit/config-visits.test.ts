import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../src/config.js'
import { amountInCents } from '../../src/lib/decimal.js'

/** docs/api/visit-checks.md's settings (src/help/settings.ts) and the exact mileage amount (src/lib/decimal.ts). */
describe('visit checks settings', () => {
  it('reads VISIT_CHECKS, the three times and MILEAGE_RATE in cents', () => {
    const config = loadConfig({
      VISIT_CHECKS: 'on', VISIT_START_GRACE_MINUTES: '1', VISIT_OVERDUE_MINUTES: '720', VISIT_ESCALATE_MINUTES: '120', MILEAGE_RATE: ' 1.5 ',
    })
    assert.deepEqual(config.visits, { checks: 'on', startGraceMinutes: 1, overdueMinutes: 720, escalateMinutes: 120, mileageRateCents: 150 })
    assert.equal(loadConfig({ MILEAGE_RATE: '0.07' }).visits.mileageRateCents, 7)
    assert.equal(loadConfig({ MILEAGE_RATE: '12' }).visits.mileageRateCents, 1200)
  })

  it('refuses values out of their limits, with the variable and the value named', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['VISIT_CHECKS', 'yes', /VISIT_CHECKS must be one of off, on, got "yes"/],
      ['VISIT_START_GRACE_MINUTES', '0', /VISIT_START_GRACE_MINUTES must be a whole number from 1 to 240, got "0"/],
      ['VISIT_START_GRACE_MINUTES', '241', /from 1 to 240/],
      ['VISIT_OVERDUE_MINUTES', '721', /VISIT_OVERDUE_MINUTES must be a whole number from 1 to 720, got "721"/],
      ['VISIT_ESCALATE_MINUTES', '121', /VISIT_ESCALATE_MINUTES must be a whole number from 1 to 120, got "121"/],
      ['VISIT_ESCALATE_MINUTES', '1.5', /from 1 to 120/],
    ]
    for (const rate of ['0.305', '-0.30', '0,30', 'abc', '.30', '1e2']) cases.push(['MILEAGE_RATE', rate, /MILEAGE_RATE must be an amount with at most two decimal places, such as 0.30/])
    for (const [name, value, message] of cases) assert.throws(() => loadConfig({ [name]: value }), message, `${name}=${value}`)
  })

  it('multiplies kilometres by the rate exactly, rounding half up to cents', () => {
    assert.equal(amountInCents('0.1', 30), '0.03')
    assert.equal(amountInCents('12.3', 30), '3.69')
    assert.equal(amountInCents('0.0', 30), '0.00')
    assert.equal(amountInCents('1000.0', 999999), '9999990.00')
    // 0.5 km × 0.01 = 0.005: half a cent, up.
    assert.equal(amountInCents('0.5', 1), '0.01')
    assert.equal(amountInCents('0.4', 1), '0.00')
    assert.equal(amountInCents('7', 35), '2.45')
    assert.throws(() => amountInCents('-1.0', 30), RangeError)
  })
})
