import { sqlState } from './database.js'

/** Beyond this many distinct statement texts, further ones run unnamed (a guard; the service has far fewer). */
const MAX_PREPARED = 500

/**
 * Names each distinct statement text once per process, so that each connection (every pooled connection to
 * the server, or PGlite's one) parses and plans it once and then only binds and executes it (a named
 * prepared statement). A text whose prepared form the server
 * refuses after a schema change ("cached plan must not change result type") is run unnamed from then on.
 */
export class StatementNames {
  readonly #names = new Map<string, string | null>()

  get (text: string): string | null {
    let name = this.#names.get(text)
    if (name === undefined) {
      name = this.#names.size < MAX_PREPARED ? `vcs_${this.#names.size + 1}` : null
      this.#names.set(text, name)
    }
    return name
  }

  /** True when the failure was that of a stale prepared statement, which is now given up. */
  stale (text: string, error: unknown): boolean {
    if (sqlState(error) !== '0A000' || this.#names.get(text) == null) return false
    this.#names.set(text, null)
    return true
  }
}
