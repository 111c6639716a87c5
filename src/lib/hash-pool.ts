import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

export interface ScryptJob { password: string, salt: Buffer, keyLength: number, N: number, r: number, p: number, maxmem: number }

/** What HashPool sends its worker (src/lib/hash-worker.ts) and what the worker answers. */
export interface HashRequest { id: number, job: ScryptJob }
export type HashReply = { id: number, key: Uint8Array, error?: undefined } | { id: number, key?: undefined, error: string }

/**
 * The worker is the module beside this one (hash-worker.ts, built to hash-worker.js). Under tsx (tests,
 * dev, scripts) only the .ts file exists, and on Node 20 a worker does not inherit `--import tsx`
 * (privatenumber/tsx#354), so there the thread first registers tsx and then imports the module.
 */
function startWorker (): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./hash-worker.js', import.meta.url))
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'))
  const module = JSON.stringify(new URL('./hash-worker.ts', import.meta.url).href)
  return new Worker(`import(${api}).then(({ register }) => { register(); return import(${module}) })`, { eval: true })
}

interface Pending { resolve(key: Buffer): void, reject(error: Error): void, startedAt?: number }
interface Slot { worker: Worker, busy: number | undefined }

/** A job refused because the queue would keep it waiting longer than the caller allows. */
export class HashQueueFull extends Error {
  constructor (readonly waitMs: number) {
    super('password hashing queue is full')
    this.name = 'HashQueueFull'
  }
}

// Until a job has been timed, each is assumed to take this long (OWASP's scrypt costs about this on one core).
const ASSUMED_JOB_MS = 250

/** One low-priority worker thread (hash-worker.ts) per core, each deriving one key at a time; further jobs wait in order. */
export class HashPool {
  readonly #slots: Slot[] = []
  readonly #queue: HashRequest[] = []
  readonly #pending = new Map<number, Pending>()
  #next = 0
  #jobMs = ASSUMED_JOB_MS

  constructor (private readonly size: number = availableParallelism()) {}

  /** How long a job given now would wait for a thread: none while one is free, else the rounds of jobs ahead of it. */
  estimatedWaitMs (): number {
    const busy = this.#slots.filter((slot) => slot.busy !== undefined).length
    return Math.ceil(Math.max(0, this.#queue.length + busy + 1 - this.size) / this.size) * this.#jobMs
  }

  /** Derives a key; with `maxWaitMs`, refuses at once (HashQueueFull) rather than queue for longer than that. */
  derive (job: ScryptJob, maxWaitMs = Infinity): Promise<Buffer> {
    const waitMs = this.estimatedWaitMs()
    if (waitMs > maxWaitMs) return Promise.reject(new HashQueueFull(waitMs))
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
      const next = this.#queue.shift() as HashRequest
      slot.busy = next.id
      const pending = this.#pending.get(next.id)
      if (pending !== undefined) pending.startedAt = performance.now()
      // A worker with a job keeps the process alive until the job is done; an idle one does not.
      slot.worker.ref()
      slot.worker.postMessage(next)
    }
  }

  #spawn (): Slot {
    const worker = startWorker()
    const slot: Slot = { worker, busy: undefined }
    this.#slots.push(slot)
    worker.on('message', ({ id, key, error }: HashReply) => {
      slot.busy = undefined
      worker.unref()
      const pending = this.#pending.get(id)
      this.#pending.delete(id)
      // A moving average, so the estimate follows the machine's load without one slow job swinging it.
      if (pending?.startedAt !== undefined) this.#jobMs = 0.8 * this.#jobMs + 0.2 * (performance.now() - pending.startedAt)
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
