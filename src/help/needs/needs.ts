/**
 * The fixed list of what a request may need of its helper (docs/api/help.md › Needs), in the table's order:
 * the order also names what a volunteer lacks when an offer is refused.
 */
export const NEED_CODES = ['car', 'wheelchair_vehicle', 'door_through_door', 'lifting', 'pets_at_home', 'same_gender'] as const
export type NeedCode = typeof NEED_CODES[number]
export type NeedsLocale = 'en' | 'de'

interface NeedText { name: string, question: string }

const TEXTS: Record<NeedsLocale, Record<NeedCode, NeedText>> = {
  en: {
    car: { name: 'Car', question: 'Does your helper need to come by car?' },
    wheelchair_vehicle: { name: 'Car for a wheelchair', question: 'Does the car need to take a folding wheelchair?' },
    door_through_door: { name: 'Door to door, inside', question: 'Do you need help from inside your home to inside the place you are going?' },
    lifting: { name: 'Lifting and carrying', question: 'Does your helper need to carry things up stairs or help you stand?' },
    pets_at_home: { name: 'Pets at home', question: 'Are there pets in your home?' },
    same_gender: { name: 'Same gender', question: 'Would you like a helper of your own gender, if possible?' },
  },
  de: {
    car: { name: 'Auto', question: 'Muss Ihre Hilfe mit dem Auto kommen?' },
    wheelchair_vehicle: { name: 'Auto für einen Rollstuhl', question: 'Muss das Auto einen Faltrollstuhl mitnehmen können?' },
    door_through_door: { name: 'Von Tür zu Tür, bis hinein', question: 'Brauchen Sie Hilfe von drinnen bei Ihnen bis hinein am Ziel?' },
    lifting: { name: 'Heben und Tragen', question: 'Muss Ihre Hilfe Dinge die Treppe hinauftragen oder Ihnen beim Aufstehen helfen?' },
    pets_at_home: { name: 'Haustiere', question: 'Leben Haustiere bei Ihnen?' },
    same_gender: { name: 'Gleiches Geschlecht', question: 'Möchten Sie, wenn möglich, eine Hilfe Ihres Geschlechts?' },
  },
}

/** The list in one language, each `{code, name, question}`. */
export function needsIn (locale: NeedsLocale): Array<{ code: NeedCode } & NeedText> {
  return NEED_CODES.map((code) => ({ code, ...TEXTS[locale][code] }))
}

/**
 * The first of en and de the Accept-Language header prefers (by q, then by order), else en.
 * A malformed header is read as far as it makes sense rather than refused: it only picks a language.
 */
export function localeFromAcceptLanguage (header: string | undefined): NeedsLocale {
  if (header === undefined) return 'en'
  const ranked = header.split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    return { language: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index }
  }).filter((entry) => entry.weight > 0 && (entry.language === 'en' || entry.language === 'de'))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return (ranked[0]?.language as NeedsLocale | undefined) ?? 'en'
}

/** Needs as stored: known codes, each once, in the table's order; undefined when the list is not that (400 'invalid needs'). */
export function parseNeeds (given: readonly string[]): NeedCode[] | undefined {
  if (!given.every((code) => (NEED_CODES as readonly string[]).includes(code)) || new Set(given).size !== given.length) return undefined
  return NEED_CODES.filter((code) => given.includes(code))
}
