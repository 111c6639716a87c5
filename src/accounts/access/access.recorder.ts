import type { Database } from '../../db/database.js'
import { GroupWriter } from '../../lib/group-writer.js'
import { writeAccessRecords, type NewAccessRecord, type TimedAccessRecord } from './access.repo.js'

/**
 * Records reveals before their answer is sent (docs/privacy.md › Access records), for every code that reveals contact data. Answers
 * given at the same moment share one statement and one commit (GroupWriter): a read that reveals waits for its
 * own record as before, but under load the service and the database do one write for many reads instead of
 * one each (docs/performance.md › Access records). Needs the database itself, not a transaction: the group's
 * write runs on its own.
 */
export class AccessRecorder {
  readonly #writer: GroupWriter<readonly TimedAccessRecord[]>

  constructor (db: Database) {
    this.#writer = new GroupWriter(async (answers) => await writeAccessRecords(db, answers.flat()))
  }

  async record (reveals: readonly NewAccessRecord[], at: Date): Promise<void> {
    if (reveals.length > 0) await this.#writer.add(reveals.map((reveal) => ({ ...reveal, at })))
  }
}
