/**
 * The values of docs/api/visits.md › Needs and matching that a profile, a client and a request share: what a
 * volunteer can offer, the genders the matching reads, and the languages (ISO 639-1). In lib/ because accounts/
 * (a profile) and on-behalf/ (a client) check them as help/ does (a request).
 */

/** What a volunteer can offer, in the table's order. */
export const CAPABILITIES = ['car', 'wheelchair_vehicle', 'door_through_door', 'lifting', 'ok_with_pets'] as const
export type Capability = typeof CAPABILITIES[number]

export const GENDERS = ['woman', 'man', 'another'] as const
export type Gender = typeof GENDERS[number]

/** ISO 639-1: every two-letter language code (the 183 current ones). */
const ISO_639_1 = new Set(`aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo
  es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko
  kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt
  qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa
  wo xh yi yo za zh zu`.split(/\s+/))

/**
 * Languages as stored: ISO 639-1 codes, each once, at most `max`; a code in capitals ("TR") is read in small
 * letters, since the person meant the language. Undefined when the list is not that.
 */
export function parseLanguages (given: readonly string[], max: number): string[] | undefined {
  if (given.length > max) return undefined
  const codes = given.map((code) => code.toLowerCase())
  if (!codes.every((code) => ISO_639_1.has(code)) || new Set(codes).size !== codes.length) return undefined
  return codes
}

/**
 * Capabilities as stored: each once, in the table's order, `wheelchair_vehicle` with `car` (a car that takes a
 * wheelchair is a car); undefined when a code is unknown or given twice.
 */
export function parseCapabilities (given: readonly string[]): Capability[] | undefined {
  if (!given.every((code) => (CAPABILITIES as readonly string[]).includes(code)) || new Set(given).size !== given.length) return undefined
  const held = new Set(given)
  if (held.has('wheelchair_vehicle')) held.add('car')
  return CAPABILITIES.filter((code) => held.has(code))
}

export const isGender = (value: unknown): value is Gender => (GENDERS as readonly unknown[]).includes(value)
