import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isSupportedCountry, parsePhone, toE164 } from '../../src/lib/phone-numbers.js'

describe('phone numbers for texts (src/lib/phone-numbers.ts)', () => {
  it('reads a number without a plus as one of the default country and writes it in E.164', () => {
    assert.deepEqual(parsePhone('15112345678', 'DE'), { e164: '+4915112345678', mobile: true })
    assert.equal(toE164('+4915112345678', 'GB'), '+4915112345678')
    assert.equal(toE164('7400123456', 'GB'), '+447400123456')
  })

  it('knows a landline from a mobile number', () => {
    assert.deepEqual(parsePhone('+49301234567', 'DE'), { e164: '+49301234567', mobile: false })
    assert.equal(parsePhone('+447400123456', 'DE').mobile, true)
  })

  it('accepts only what the phone pattern of the interface accepts', () => {
    assert.equal(toE164('015112345678', 'DE'), null)
    assert.equal(toE164('0151 1234 5678', 'DE'), null)
    assert.equal(toE164('+49-151-12345678', 'DE'), null)
    assert.deepEqual(parsePhone('+0151', 'DE'), { e164: null, mobile: false })
  })

  it('gives no E.164 form to a number that is not valid for its country', () => {
    assert.deepEqual(parsePhone('+491', 'DE'), { e164: null, mobile: false })
    assert.equal(toE164('12', 'DE'), null)
  })

  it('knows the country codes SMS_DEFAULT_COUNTRY may name', () => {
    assert.equal(isSupportedCountry('DE'), true)
    assert.equal(isSupportedCountry('XX'), false)
  })
})
