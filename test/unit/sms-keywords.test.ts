import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { storedFormsOf } from '../../src/lib/phone-numbers.js'
import { readReply } from '../../src/lib/sms-keywords.js'

/** docs/api/messaging.md › Texts › Replies: which texts are replies, and how a sender is matched to profiles. */
describe('reply keywords', () => {
  it('reads each keyword in English and German, in any case, with spaces and punctuation around it', () => {
    for (const [text, keyword] of [['STOP', 'stop'], ['stopp', 'stop'], [' Stop! ', 'stop'], ['START', 'start'], ['help', 'help'], ['Hilfe?', 'help'], ['HILFE', 'help']] as const) {
      assert.deepEqual(readReply(text), { keyword }, text)
    }
  })

  it('reads YES, JA, OK, NO and NEIN only with a 4-digit code', () => {
    assert.deepEqual(readReply('YES 4821'), { keyword: 'yes', code: '4821' })
    assert.deepEqual(readReply('ja, 4821.'), { keyword: 'yes', code: '4821' })
    assert.deepEqual(readReply('ok 0007'), { keyword: 'ok', code: '0007' })
    assert.deepEqual(readReply('Nein 1234'), { keyword: 'no', code: '1234' })
    assert.deepEqual(readReply('no 1234'), { keyword: 'no', code: '1234' })
    for (const text of ['YES', 'YES 482', 'YES 48210', 'OK abcd', 'STOP 1234', 'please STOP', 'STOP it now', '', '   ', 'YES 4821 thanks']) {
      assert.equal(readReply(text), undefined, JSON.stringify(text))
    }
  })
})

describe('a sender\'s number as profiles may hold it', () => {
  it('is E.164, and the national number when it is of the default country', () => {
    assert.deepEqual(storedFormsOf('+4915112345678', 'DE'), ['+4915112345678', '15112345678'])
    assert.deepEqual(storedFormsOf('+4915112345678', 'AT'), ['+4915112345678'])
    assert.deepEqual(storedFormsOf('+436641234567', 'AT'), ['+436641234567', '6641234567'])
  })
})
