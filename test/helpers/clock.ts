import type { Clock } from '../../src/lib/clock.js'

/** A clock the test moves: time passes only when told, so tests move time instead of waiting for it. */
export class ManualClock implements Clock {
  #ms: number

  /** Starts at `start` (default: the real time now). */
  constructor (start: Date = new Date()) {
    this.#ms = start.getTime()
  }

  now (): Date { return new Date(this.#ms) }

  advance (ms: number): void { this.#ms += ms }

  set (date: Date): void { this.#ms = date.getTime() }
}

/** A day in milliseconds, the step a test moves a ManualClock by. */
export const DAY_MS = 86_400_000
