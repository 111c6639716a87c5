import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sealerFor } from '../../src/lib/sealing.js'

describe('sealing (codes waiting in the outbox, docs/api/accounts.md › Getting back in)', () => {
  const sealer = sealerFor('a'.repeat(40))
  it('opens what it sealed; the sealed text does not hold the code and differs each time', () => {
    const first = sealer.seal('123456')
    const second = sealer.seal('123456')
    assert.notEqual(first, second)
    assert.ok(!first.includes('123456'))
    assert.equal(sealer.open(first), '123456')
    assert.equal(sealerFor('a'.repeat(40)).open(second), '123456')
  })
  it('refuses another key, an altered text and rubbish', () => {
    const sealed = sealer.seal('654321')
    assert.equal(sealerFor('b'.repeat(40)).open(sealed), undefined)
    const altered = Buffer.from(sealed, 'base64url')
    altered.writeUInt8(altered.readUInt8(altered.length - 1) ^ 1, altered.length - 1)
    assert.equal(sealer.open(altered.toString('base64url')), undefined)
    assert.equal(sealer.open('short'), undefined)
    assert.equal(sealer.open(''), undefined)
  })
})
