// The one seeded random generator of the seed, the bench and the tests. Number k of row (or call) n is
// a 32-bit slice of md5("seed:stream<k div 4>:n"), the same in SQL (PostgreSQL's md5()) and in JS, so the
// seed can draw its rows set-based inside the database while the bench and tests draw the same numbers
// in the process; row n is the same whatever the batch size, engine or order.
import { createHash } from 'node:crypto'

/** The uniform numbers in [0, 1) number `first` .. `first + count - 1` of row `n` in `stream`. */
export function uniformsOf (seed: number | string, stream: string, n: number, count: number, first = 0): number[] {
  const values: number[] = []
  let digest = ''
  for (let k = first; k < first + count; k++) {
    if (digest === '' || k % 4 === 0) digest = createHash('md5').update(`${seed}:${stream}${Math.floor(k / 4)}:${n}`).digest('hex')
    values.push(parseInt(digest.slice((k % 4) * 8, (k % 4) * 8 + 8), 16) / 4294967296)
  }
  return values
}

/** A sequence of uniform numbers in [0, 1): the four numbers of row 1 of `stream`, then of row 2, and so on. */
export function randomStream (seed: number | string, stream: string): () => number {
  let row = 0
  let buffer: number[] = []
  return () => {
    if (buffer.length === 0) buffer = uniformsOf(seed, stream, ++row, 4).reverse()
    return buffer.pop()!
  }
}

/**
 * The same numbers in SQL: `count` columns u0, u1 ... for the row numbered by the expression `row`,
 * as a FROM-clause tail (CROSS JOIN LATERAL ... u). `seed` is an SQL expression of type text.
 */
export function uniformsSql (seed: string, stream: string, count: number, row = 'g.i'): string {
  const digests = Array.from({ length: Math.ceil(count / 4) }, (_, d) => `md5(${seed} || ':${stream}${d}:' || ${row}) AS h${d}`)
  const slices = Array.from({ length: count }, (_, k) =>
    `('x' || substr(h.h${Math.floor(k / 4)}, ${(k % 4) * 8 + 1}, 8))::bit(32)::bigint::float8 / 4294967296 AS u${k}`)
  // OFFSET 0 keeps the planner from pulling the subqueries up, which would recompute the digests at every use of a uK.
  return `CROSS JOIN LATERAL (SELECT ${digests.join(', ')} OFFSET 0) h CROSS JOIN LATERAL (SELECT ${slices.join(', ')} OFFSET 0) u`
}
