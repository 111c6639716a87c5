/**
 * The ids (requests for rounds, volunteers for catch-ups) whose claimed run failed lately, passed over for
 * `ms` so that one failing run cannot hold up the rest: alerts.service.ts and catch-up.service.ts claim past them.
 */
export class FailedClaims {
  private readonly until = new Map<number, number>()

  constructor (private readonly ms: number) {}

  /**
   * Runs `body` at `now` (epoch milliseconds): it claims past `failing()`, the ids still passed over then, and
   * tells `claimed` the id it took; when it throws after that, that id is passed over from `now`.
   */
  async run<T> (now: number, body: (failing: () => number[], claimed: (id: number) => void) => Promise<T>): Promise<T> {
    for (const [id, until] of this.until) if (until <= now) this.until.delete(id)
    let claimed: number | undefined
    try {
      return await body(() => [...this.until.keys()], (id) => { claimed = id })
    } catch (error) {
      if (claimed !== undefined) this.until.set(claimed, now + this.ms)
      throw error
    }
  }
}
