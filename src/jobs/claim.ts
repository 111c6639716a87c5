import type { Database, Transaction } from '../db/database.js'

/**
 * "Once across instances" for a whole job: runs `body` in a transaction that first takes the job's
 * transaction-level advisory lock without waiting. Undefined when another instance holds it (that one is
 * running the job, and this one leaves the work to it); the lock goes with the transaction, so a process
 * killed mid-run frees it. Work on rows that any instance may take claims them with SKIP LOCKED instead.
 * `lockKey`: any constant, the same on every instance, one per job.
 */
export async function whenUnclaimed<T> (db: Database, lockKey: number, body: (tx: Transaction) => Promise<T>): Promise<{ value: T } | undefined> {
  return await db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [lockKey])
    return lock?.locked === true ? { value: await body(tx) } : undefined
  })
}
