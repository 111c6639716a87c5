import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

export interface ScryptJob { password: string, salt: Buffer, keyLength: number, N: number, r: number, p: number, maxmem: number }

/**
 * The worker: derives keys with scryptSync. On Linux a thread has its own nice value, so each worker
 * lowers its own priority to the lowest: hashing then takes only CPU time that serving requests leaves
 * over, and a login storm cannot slow down the event loop, searches or health checks. Elsewhere it
 * simply runs at normal priority.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { scryptSync } = require('node:crypto')
const { readlinkSync } = require('node:fs')
const { setPriority } = require('node:os')
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19)
} catch {}
parentPort.on('message', ({ id, job }) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, { N: job.N, r: job.r, p: job.p, maxmem: job.maxmem })
    parentPort.postMessage({ id, key })
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
`

interface Pending { resolve(key: Buffer): void, reject(error: Error): void }
interface Slot { worker: Worker, busy: number | undefined }

/** One low-priority worker thread per core, each deriving one key at a time; further jobs wait in order. */
export class HashPool {
  readonly #slots: Slot[] = []
  readonly #queue: Array<{ id: number, job: ScryptJob }> = []
  readonly #pending = new Map<number, Pending>()
  #next = 0

  constructor (private readonly size: number = availableParallelism()) {}

  derive (job: ScryptJob): Promise<Buffer> {
    const id = ++this.#next
    return new Promise<Buffer>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject })
      this.#queue.push({ id, job })
      this.#dispatch()
    })
  }

  #dispatch (): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.busy === undefined)
      if (slot === undefined && this.#slots.length < this.size) slot = this.#spawn()
      if (slot === undefined) return
      const next = this.#queue.shift() as { id: number, job: ScryptJob }
      slot.busy = next.id
      // A worker with a job keeps the process alive until the job is done; an idle one does not.
      slot.worker.ref()
      slot.worker.postMessage(next)
    }
  }

  #spawn (): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true })
    const slot: Slot = { worker, busy: undefined }
    this.#slots.push(slot)
    worker.on('message', ({ id, key, error }: { id: number, key?: Uint8Array, error?: string }) => {
      slot.busy = undefined
      worker.unref()
      const pending = this.#pending.get(id)
      this.#pending.delete(id)
      if (error !== undefined || key === undefined) pending?.reject(new Error(error ?? 'no key'))
      else pending?.resolve(Buffer.from(key.buffer, key.byteOffset, key.byteLength))
      this.#dispatch()
    })
    // A worker that dies takes its job with it; the job fails and a new worker serves the queue.
    worker.on('error', () => {})
    worker.on('exit', () => {
      this.#slots.splice(this.#slots.indexOf(slot), 1)
      if (slot.busy !== undefined) {
        this.#pending.get(slot.busy)?.reject(new Error('password hashing worker stopped'))
        this.#pending.delete(slot.busy)
      }
      this.#dispatch()
    })
    // Idle until given a job; after the listeners, since attaching a 'message' listener refs the worker.
    worker.unref()
    return slot
  }
}
