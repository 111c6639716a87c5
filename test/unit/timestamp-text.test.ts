import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pg from 'pg'
import { isoTimestamp, isoTimestampOrNull } from '../../src/lib/timestamp-text.js'

/** What node-postgres's Date shows of the same text, as the serializer writes it. */
const viaDate = (text: string): string => (pg.types.getTypeParser(1184) as (value: string) => Date)(text).toISOString()

describe('isoTimestamp: PostgreSQL\'s timestamptz text in the API\'s form', () => {
  it('gives exactly what parsing into a Date and writing it out gave, milliseconds cut, in UTC and in other zones', () => {
    for (const text of [
      '2026-11-09 08:26:06.287123+00', '2026-11-09 08:26:06+00', '2026-11-09 08:26:06.5+00', '2026-11-09 08:26:06.28+00',
      '2026-11-09 08:26:06.999999+00', '1999-12-31 23:59:59.9995+00', '2026-03-29 01:00:00.000001+00',
      '2026-11-09 10:26:06.287+02', '2026-11-09 02:56:06.287654-05:30', '2026-11-09 00:00:00-03', '2026-06-30 23:59:59.1+14',
    ]) {
      assert.equal(isoTimestamp(text), viaDate(text), text)
    }
  })

  it('keeps null, and refuses what is not a timestamp rather than answering nonsense', () => {
    assert.equal(isoTimestampOrNull(null), null)
    assert.equal(isoTimestampOrNull('2026-11-09 08:26:06.287+00'), '2026-11-09T08:26:06.287Z')
    assert.throws(() => isoTimestamp('yesterday'), /not a timestamp/)
  })
})
