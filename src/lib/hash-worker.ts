// The password-hashing worker thread (started by HashPool): derives one key at a time with scryptSync.
import { scryptSync } from 'node:crypto'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import type { HashReply, HashRequest } from './hash-pool.js'

/**
 * On Linux a thread has its own nice value, so the worker lowers its own priority to the lowest:
 * hashing then takes only CPU time that serving requests leaves over, and a login storm cannot slow
 * down the event loop, searches or health checks. Elsewhere it simply runs at normal priority.
 */
function lowestPriority (): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19)
  } catch {}
}

if (parentPort === null) throw new Error('hash-worker runs as a worker thread of HashPool')
const port = parentPort
lowestPriority()
port.on('message', ({ id, job }: HashRequest) => {
  let reply: HashReply
  try {
    const key = scryptSync(job.password, job.salt, job.keyLength, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem })
    reply = { id, key }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})
