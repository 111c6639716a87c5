import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sayWindow } from './schedule.js'

/** A help window in words (web/src/lib/schedule.ts), in the device's zone: here Berlin's, set for this file. */
describe('a window in words', () => {
  const zone = process.env.TZ
  before(() => { process.env.TZ = 'Europe/Berlin' })
  after(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone })

  it('names the day once for a window within one day, in both languages', () => {
    assert.equal(sayWindow('2026-12-01T06:30:00Z', '2026-12-01T09:30:00Z', 'en'), 'Tuesday 1 December, 07:30–10:30')
    assert.equal(sayWindow('2026-12-01T06:30:00Z', '2026-12-01T09:30:00Z', 'de'), 'Dienstag, 1. Dezember, 07:30–10:30 Uhr')
    assert.equal(sayWindow('2026-12-01T06:30:00Z', null, 'en'), 'Tuesday 1 December, 07:30')
  })

  it('names both days for a window past midnight, never numeric dates', () => {
    assert.equal(sayWindow('2026-11-29T22:05:00Z', '2026-11-29T23:05:00Z', 'en'), 'Sunday 29 November, 23:05 – Monday 30 November, 00:05')
    assert.equal(sayWindow('2026-11-29T22:05:00Z', '2026-11-29T23:05:00Z', 'de'), 'Sonntag, 29. November, 23:05 – Montag, 30. November, 00:05')
  })
})
