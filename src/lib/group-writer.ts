/**
 * Writes items in groups: an item added while a write is under way goes with the next one, so callers at the
 * same moment share one statement and one commit, and each caller's promise settles once its own item is
 * written (nothing is held back or dropped). A lone item is written at once, so a quiet service waits for nothing.
 * A group that fails is written again item by item, so one bad item fails only its own caller.
 */
export class GroupWriter<T> {
  #waiting: Array<{ item: T, done: (error?: unknown) => void }> = []
  #writing: Promise<void> | undefined

  constructor (private readonly writeGroup: (items: T[]) => Promise<void>, private readonly maxGroup = 100) {}

  async add (item: T): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#waiting.push({ item, done: (error) => (error === undefined ? resolve() : reject(error)) })
      this.#writing ??= this.#drain()
    })
  }

  async #drain (): Promise<void> {
    while (this.#waiting.length > 0) {
      const group = this.#waiting.splice(0, this.maxGroup)
      try {
        await this.writeGroup(group.map((entry) => entry.item))
        for (const entry of group) entry.done()
      } catch (error) {
        if (group.length === 1) group[0]!.done(error)
        else for (const entry of group) await this.writeGroup([entry.item]).then(() => entry.done(), entry.done)
      }
    }
    this.#writing = undefined
  }
}
