import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { deadlineOf, timeOf, windowOf } from './timing.js'

/** "When is it?" and "By when?" read as a window or a deadline, in the device's zone: Berlin's here. */
describe('when help once is needed', () => {
  const zone = process.env.TZ
  before(() => { process.env.TZ = 'Europe/Berlin' })
  after(() => { if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone })
  const now = new Date('2027-03-15T09:00:00Z')

  it('a set time is a window from the start to the end, an hour when no end is given', () => {
    const window = windowOf({ onDay: '2027-3-16', startsAt: '9.30', endsAt: '11:00' }, now)
    assert.deepEqual(window, { start: new Date('2027-03-16T08:30:00Z'), end: new Date('2027-03-16T10:00:00Z') })
    assert.deepEqual(windowOf({ onDay: '2027-3-16', startsAt: '09:30', endsAt: ' ' }, now), { start: new Date('2027-03-16T08:30:00Z'), end: new Date('2027-03-16T09:30:00Z') })
  })

  it('names the first answer that is wrong', () => {
    assert.equal(windowOf({ onDay: '2027-2-30', startsAt: '09:30' }, now), 'onDay')
    assert.equal(windowOf({ onDay: '2027-3-16', startsAt: 'half nine' }, now), 'startsAt')
    assert.equal(windowOf({ onDay: '2027-3-16', startsAt: '09:30', endsAt: '09:30' }, now), 'endsAt')
    assert.equal(windowOf({ onDay: '2027-3-16', startsAt: '09:30', endsAt: 'noon' }, now), 'endsAt')
    assert.equal(windowOf({ onDay: '2027-3-15', startsAt: '09:30' }, now), 'past')
  })

  it('by a day is that day\'s time, else its end; a time already gone is refused', () => {
    assert.deepEqual(deadlineOf({ onDay: '2027-3-16', byTime: '18.00' }, now), new Date('2027-03-16T17:00:00Z'))
    assert.deepEqual(deadlineOf({ onDay: '2027-3-16' }, now), new Date('2027-03-16T22:59:00Z'))
    assert.equal(deadlineOf({ onDay: '2027-3-15', byTime: '09:00' }, now), 'past')
    assert.equal(deadlineOf({ onDay: '2027-3-16', byTime: '25:00' }, now), 'byTime')
    assert.equal(deadlineOf({ onDay: '' }, now), 'onDay')
  })

  it('the answered time is the window, the deadline, or nothing for any time and for answers not valid', () => {
    const day = { onDay: '2099-3-16', startsAt: '09:30', byTime: '18:00' }
    assert.ok(timeOf({ ...day, timing: 'at' }) !== undefined && !(timeOf({ ...day, timing: 'at' }) instanceof Date))
    assert.ok(timeOf({ ...day, timing: 'by' }) instanceof Date)
    assert.equal(timeOf({ ...day, timing: 'any' }), undefined)
    assert.equal(timeOf({ timing: 'at', onDay: '2099-2-30', startsAt: '09:30' }), undefined)
  })
})
