/**
 * The one grammar of numbers written as text (query strings and path segments): plain decimal
 * notation, an optional sign, digits with an optional fraction, an optional exponent (`52.52`, `-0.5`,
 * `+3`, `.5`, `1e2`). Number() alone would also read `0x10` as 16, ` ` and `` as 0, and `Infinity`.
 * A leading `+` is accepted because the searches have always read `+3` as 3 and nothing in the
 * interface calls it non-numeric; refusing it now would turn answers clients get today into 400s.
 */
export const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/**
 * Ids: digits only, with an optional minus that the id's minimum then refuses. No `+`, fraction or
 * exponent: an id is written as the service writes it, so `/users/+5` and `/users/5e0` are 400s.
 */
export const DECIMAL_INTEGER = /^-?\d+$/

/** The finite number `raw` spells in DECIMAL notation, else undefined. */
export function parseDecimal (raw: string): number | undefined {
  if (!DECIMAL.test(raw)) return undefined
  const value = Number(raw)
  return Number.isFinite(value) ? value : undefined
}
