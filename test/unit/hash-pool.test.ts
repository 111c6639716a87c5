import assert from 'node:assert/strict'
import { scryptSync } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import { HashPool } from '../../src/lib/hash-pool.js'

const job = (password: string) => ({ password, salt: Buffer.from('0123456789abcdef'), keyLength: 32, N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 })

/** Nice values of this process's threads, from /proc (Linux). */
async function threadNiceValues (): Promise<number[]> {
  const tids = await readdir('/proc/self/task')
  const stats = await Promise.all(tids.map((tid) => readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '')))
  // Field 19 is the nice value; count from after the command name, which may hold spaces.
  return stats.filter(Boolean).map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]))
}

describe('password hashing pool', () => {
  it('derives the same keys as scrypt, for more jobs at once than it has workers', async () => {
    const pool = new HashPool(2)
    const passwords = Array.from({ length: 7 }, (_, i) => `password ${i}`)
    const keys = await Promise.all(passwords.map((password) => pool.derive(job(password))))
    keys.forEach((key, i) => assert.deepEqual(key, scryptSync(passwords[i] as string, Buffer.from('0123456789abcdef'), 32, { N: 2 ** 10, r: 8, p: 1 })))
  })

  it('reports a failed derivation and keeps serving', async () => {
    const pool = new HashPool(1)
    await assert.rejects(pool.derive({ ...job('x'), N: 1000 }), /Invalid scrypt params/)
    assert.equal((await pool.derive(job('x'))).length, 32)
  })

  it('runs its workers at the lowest priority on Linux, so hashing yields the CPU to serving requests', { skip: process.platform !== 'linux' && 'Linux only' }, async () => {
    const before = (await threadNiceValues()).filter((nice) => nice === 19).length
    const pool = new HashPool(2)
    await Promise.all([pool.derive(job('a')), pool.derive(job('b'))])
    assert.ok((await threadNiceValues()).filter((nice) => nice === 19).length >= before + 2, 'two more threads at nice 19')
  })
})
