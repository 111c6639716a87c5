import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decoyHash, hashPassword, verifyPassword } from '../../src/lib/passwords.js'

const CHEAP = { N: 2 ** 10, r: 8, p: 1 }

describe('password hashing', () => {
  it('stores scheme, parameters, salt and key; verifies the right password only', async () => {
    const hash = await hashPassword('correct horse battery', CHEAP)
    assert.match(hash, /^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    assert.equal(await verifyPassword('correct horse battery', hash), true)
    assert.equal(await verifyPassword('correct horse batterY', hash), false)
  })

  it('salts every hash', async () => {
    assert.notEqual(await hashPassword('same password', CHEAP), await hashPassword('same password', CHEAP))
  })

  it('verifies with the parameters stored in the hash, so they can be raised later', async () => {
    const old = await hashPassword('correct horse battery', { N: 2 ** 11, r: 8, p: 1 })
    assert.equal(await verifyPassword('correct horse battery', old), true)
  })

  it('compares passwords after NFKC normalisation', async () => {
    const hash = await hashPassword('ｐａｓｓｗｏｒｄ', CHEAP)
    assert.equal(await verifyPassword('password', hash), true)
  })

  it('a stored value that is not an scrypt hash never verifies', async () => {
    for (const stored of ['', 'plain text', 'bcrypt$2b$10$abc', 'scrypt$1024$8$1']) assert.equal(await verifyPassword('x', stored), false)
  })

  it('a decoy hash verifies no guessable password', async () => {
    const decoy = await decoyHash(CHEAP)
    assert.equal(await verifyPassword('', decoy), false)
    assert.equal(await verifyPassword('password', decoy), false)
  })
})
