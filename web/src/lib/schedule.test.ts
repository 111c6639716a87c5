import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { localInstant, readDate, sayWindow } from './schedule.js'

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

/** GOV.UK's three date fields as typed ("year-month-day"), read as a day of the calendar or refused. */
describe('a typed date', () => {
  it('reads one- or two-digit days and months with a four-digit year, spaces around them too', () => {
    assert.equal(readDate('2027-5-3'), '2027-05-03')
    assert.equal(readDate('2027-05-03'), '2027-05-03')
    assert.equal(readDate(' 2027 - 12 - 31 '), '2027-12-31')
    assert.equal(readDate('2028-2-29'), '2028-02-29')
  })

  it('refuses days the calendar has not, short years and missing parts', () => {
    for (const text of ['2027-4-31', '2027-2-29', '2027-13-1', '2027-0-10', '2027-1-0', '27-5-3', '2027--3', '-5-3', '', '2027-5-3x']) {
      assert.equal(readDate(text), undefined, text)
    }
  })

  it('places a day and a clock on this device\'s zone', () => {
    const zone = process.env.TZ
    process.env.TZ = 'Europe/Berlin'
    try {
      assert.equal(localInstant('2027-03-16', '07:30').toISOString(), '2027-03-16T06:30:00.000Z')
      assert.equal(localInstant('2027-07-01', '23:59').toISOString(), '2027-07-01T21:59:00.000Z')
    } finally {
      if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone
    }
  })
})
