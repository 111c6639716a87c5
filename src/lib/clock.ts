/**
 * The one source of the current time for every rule that depends on it (alert rounds and daily caps,
 * retention, token lifetimes, and the schedule's windows): services and jobs take a Clock, never
 * Date.now(), so tests move time instead of waiting for it.
 */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = Object.freeze({ now: () => new Date() })
