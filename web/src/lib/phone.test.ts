import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readPhone, takesTexts } from './phone.js'

/** docs/web.md › Phone numbers: what people type becomes E.164 for the deployment's country. */
describe('phone numbers as people say them', () => {
  it('reads a national number for the deployment\'s country, with the spaces, slashes and dashes people type', () => {
    for (const typed of ['0151 12345678', '0151/12345678', '(0151) 1234-5678', '+49 151 12345678', '0049 151 12345678', '+4915112345678', '15112345678']) {
      assert.equal(readPhone(typed, 'DE'), '+4915112345678', typed)
    }
    assert.equal(readPhone('030 1234567', 'DE'), '+49301234567')
    assert.equal(readPhone('+44 20 7946 0958', 'DE'), '+442079460958')
    assert.equal(readPhone('0664 1234567', 'AT'), '+436641234567')
  })

  it('refuses what is no number of that country', () => {
    for (const typed of ['', '12', 'call me', '0151', '0151 1234', '+49 151 12345678 999 999', '0000 000000']) assert.equal(readPhone(typed, 'DE'), undefined, typed)
    assert.equal(readPhone('0151 12345678', undefined), undefined, 'a national number needs a country')
  })
})

/** docs/api/messaging.md › Phone numbers: texts go only to a number of a mobile kind, as the service decides. */
describe('numbers that take texts', () => {
  it('takes mobile numbers and refuses landlines and what is no number', () => {
    assert.equal(takesTexts('+4915112345678'), true)
    assert.equal(takesTexts('+447911123456'), true)
    assert.equal(takesTexts('+49301234567'), false, 'a Berlin landline')
    assert.equal(takesTexts('+442079460958'), false, 'a London landline')
    assert.equal(takesTexts('15112345678'), false, 'as written, without its country: the service could not read it either')
    assert.equal(takesTexts(''), false)
  })
})
