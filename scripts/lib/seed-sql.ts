// The words the demo data draws from (scripts/seed.ts), and the pieces its set-based SQL is built of.

export const FIRST_NAMES = ['Anna', 'Ben', 'Clara', 'David', 'Emma', 'Felix', 'Greta', 'Hannah', 'Jonas', 'Karin', 'Lukas', 'Marie',
  'Noah', 'Olga', 'Paul', 'Rosa', 'Sophie', 'Tim', 'Ursula', 'Yusuf', 'Zeynep', 'Mehmet', 'Ingrid', 'Walter']
export const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Koch', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Braun', 'Yilmaz', 'Kowalski']
export const STREETS = ['Hauptstraße', 'Schulstraße', 'Gartenweg', 'Bahnhofstraße', 'Lindenallee', 'Kirchplatz', 'Am Markt',
  'Birkenweg', 'Rosenstraße', 'Parkstraße', 'Mühlenweg', 'Friedhofstraße', 'Bergstraße', 'Wiesenweg', 'Ringstraße', 'Uferweg']
/** Four titles for each of the six request types the migrations seed, in id order; other types cycle through them. */
export const TITLES = [
  'Weekly groceries', 'Pick up my prescription', 'Shopping at the market', 'Heavy drinks crates',
  'Lift to the hospital', 'Escort to the train station', 'Ride to the pharmacy', 'Help getting to church',
  'Change a light bulb', 'Carry boxes to the cellar', 'Hang up curtains', 'Take out the bulky rubbish',
  'Company at the doctor', 'Accompany me to the town hall', 'Go with me to the dentist', 'Help at a hearing appointment',
  'Set up my new phone', 'Video call with my grandchildren', 'Fill in an online form', 'Printer does not work',
  'Walk my dog', 'Water my plants', 'Read letters aloud', 'Someone to talk to',
]
export const DESCRIPTIONS = [
  'I use a wheelchair and cannot manage this alone. Any weekday morning would be ideal.',
  'Since my hip operation I cannot carry much. It should take about an hour.',
  'I live on the third floor without a lift. Please ring twice, the bell is quiet.',
  'My eyesight is poor and I would be grateful for a patient helper.',
  'I am recovering from an illness and my family lives far away. Afternoons suit me best.',
  'It is not urgent but would make my week much easier. Thank you in advance!',
]
export const BIOS = ['Retired teacher, happy to help with reading and forms.', 'Student with a car and free afternoons.',
  'I love dogs and long walks.', 'Nurse working shifts; weekends are best for me.']
export const REJECT_REASONS = ['Contains personal data in the description', 'Duplicate of an earlier request',
  'Outside the area we serve', 'Commercial offer, not a request for help']
export const MESSAGES = ['I can help!', 'I live around the corner and have time on Tuesday.', 'Happy to do this, call me.', null]

/** Placeholders for one statement: `p(value)` adds a parameter and returns its `$n`. */
export function parameters (): { p: (value: unknown, cast?: string) => string, values: unknown[] } {
  const values: unknown[] = []
  return {
    values,
    p (value, cast) {
      values.push(value)
      return cast === undefined ? `$${values.length}` : `$${values.length}::${cast}`
    },
  }
}

/** An element of a text array parameter, chosen by a uniform number. */
export const pick = (array: string, length: number, u: string) => `(${array})[1 + floor(${u} * ${length})::int]`
