import assert from 'node:assert/strict'
import { availableParallelism } from 'node:os'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.js'

const SERVER = { DATABASE_URL: 'postgres://app@db.example.org/volunteers', JWT_SECRET: 'x'.repeat(32) }

describe('WORKERS setting', () => {
  it('is 1 when unset, a whole number from 1 to 64, or auto for one per core', () => {
    assert.equal(loadConfig(SERVER).workers, 1)
    assert.equal(loadConfig({ ...SERVER, WORKERS: '3' }).workers, 3)
    assert.equal(loadConfig({ ...SERVER, WORKERS: 'auto' }).workers, availableParallelism())
    assert.equal(loadConfig({ WORKERS: '1' }).workers, 1)
  })

  it('refuses anything else with a message naming it', () => {
    for (const value of ['0', '65', 'two', '1.5', '-1']) {
      assert.throws(() => loadConfig({ ...SERVER, WORKERS: value }), new ConfigError(`WORKERS must be auto or a whole number from 1 to 64, got "${value}"`))
    }
  })

  it('refuses more than one worker on the embedded database, which belongs to one process', () => {
    for (const value of ['2', 'auto']) {
      assert.throws(() => loadConfig({ WORKERS: value }), /WORKERS needs DATABASE_URL: the embedded database can be opened by one process only/)
    }
  })
})
