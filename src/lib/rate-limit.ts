import { Redis } from 'ioredis'

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number
  /** Milliseconds until the window ends. */
  resetMs: number
}

/** Fixed-window counters. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<Hit>
  close(): Promise<void>
}

const MAX_KEYS = 100_000

/** Counters in this process: right for a single instance. */
export class MemoryStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number, resetAt: number }>()

  constructor (private readonly now: () => number = Date.now) {}

  async hit (key: string, windowMs: number): Promise<Hit> {
    const now = this.now()
    let window = this.#windows.get(key)
    if (window === undefined || window.resetAt <= now) {
      if (this.#windows.size >= MAX_KEYS) this.#sweep(now)
      window = { count: 0, resetAt: now + windowMs }
      this.#windows.set(key, window)
    }
    window.count += 1
    return { count: window.count, resetMs: window.resetAt - now }
  }

  /** Drops ended windows; if all are live, the oldest half, so memory stays bounded under a flood of keys. */
  #sweep (now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key)
    if (this.#windows.size < MAX_KEYS) return
    let drop = this.#windows.size / 2
    for (const key of this.#windows.keys()) {
      if (drop-- <= 0) break
      this.#windows.delete(key)
    }
  }

  async close (): Promise<void> {}
}

// INCR and the expiry in one atomic step, so a window can never be left without an end.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

/**
 * Counters in Redis, shared by every instance. When Redis cannot be reached the limits still hold
 * per instance (a memory fallback) rather than failing the request or letting everything through.
 */
export class RedisStore implements RateLimitStore {
  readonly #redis: Redis
  readonly #fallback = new MemoryStore()

  constructor (url: string, private readonly onError: (error: unknown) => void = () => {}) {
    this.#redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
    this.#redis.on('error', () => {}) // reported per failed hit below, not per reconnect attempt
  }

  async hit (key: string, windowMs: number): Promise<Hit> {
    try {
      const [count, ttl] = await this.#redis.eval(HIT_SCRIPT, 1, `vcs:rl:${key}`, windowMs) as [number, number]
      return { count, resetMs: ttl }
    } catch (error) {
      this.onError(error)
      return await this.#fallback.hit(key, windowMs)
    }
  }

  async close (): Promise<void> {
    this.#redis.disconnect()
  }
}
