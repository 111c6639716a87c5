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

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/

/**
 * Exact money for reimbursements: `quantity`, a non-negative decimal as text ("12.3", as PostgreSQL writes a numeric),
 * times `cents` per unit, rounded half up to two places, as text ("3.69"). In whole numbers (BigInt) throughout:
 * 0.1 × 0.30 is 0.03, never a binary fraction's 0.030000000000000002 or its rounding.
 */
export function amountInCents (quantity: string, cents: number): string {
  const match = PLAIN_DECIMAL.exec(quantity)
  if (match === null || !Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount: ${quantity} × ${cents}`)
  const fraction = match[2] ?? ''
  const scale = 10n ** BigInt(fraction.length)
  // quantity × scale, times cents: hundredths × scale; back to hundredths, half up.
  const hundredths = (BigInt(`${match[1]!}${fraction}`) * BigInt(cents) * 2n + scale) / (2n * scale)
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`
}
