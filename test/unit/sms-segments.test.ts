import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isGsmText, smsShape } from '../../src/lib/sms-segments.js'

describe('segments of a text (src/lib/sms-segments.ts)', () => {
  it('keeps German and French letters in the GSM alphabet', () => {
    assert.ok(isGsmText('Jonas hilft Ihnen am Dienstag: Einkäufe, Größe, Füße, café'))
    assert.equal(smsShape('äöüßé').encoding, 'gsm')
    assert.equal(smsShape('äöüßé').dataCoding, 0x00)
  })

  it('counts 160 septets as one segment and 161 as two of 153', () => {
    assert.deepEqual(smsShape('a'.repeat(160)), { encoding: 'gsm', dataCoding: 0x00, units: 160, segments: 1 })
    assert.equal(smsShape('a'.repeat(161)).segments, 2)
    assert.equal(smsShape('a'.repeat(306)).segments, 2)
    assert.equal(smsShape('a'.repeat(307)).segments, 3)
    assert.equal(smsShape('').segments, 1)
  })

  it('counts an extension character as two septets, never split across segments', () => {
    assert.equal(smsShape('€'.repeat(80)).units, 160)
    assert.equal(smsShape('€'.repeat(80)).segments, 1)
    assert.equal(smsShape(`${'a'.repeat(152)}€`).segments, 1)
    // Split, the euro after 152 septets does not fit in the first segment's 153 and starts the second.
    assert.equal(smsShape(`${'a'.repeat(152)}€${'a'.repeat(151)}`).segments, 2)
    assert.equal(smsShape(`${'a'.repeat(152)}€${'a'.repeat(152)}`).segments, 3)
  })

  it('sends anything else in UCS-2: 70 units alone, 67 a segment', () => {
    assert.deepEqual(smsShape('ç'.repeat(70)), { encoding: 'ucs2', dataCoding: 0x08, units: 70, segments: 1 })
    assert.equal(smsShape('ç'.repeat(71)).segments, 2)
    assert.equal(smsShape('Şule'.padEnd(134, 'x')).segments, 2)
    assert.equal(smsShape('Şule'.padEnd(135, 'x')).segments, 3)
  })

  it('keeps a surrogate pair in one segment', () => {
    assert.equal(smsShape(`${'x'.repeat(66)}😀`).segments, 1)
    const text = `${'x'.repeat(66)}😀${'x'.repeat(66)}`
    assert.equal(smsShape(text).units, 134)
    assert.equal(smsShape(text).segments, 3)
  })
})
