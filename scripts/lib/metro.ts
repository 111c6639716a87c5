// The one model of where people live, used by the seed (in SQL), the bench and the tests (in JS): a
// metro area dense in the centre and thin in the suburbs, so searches meet the mix of crowded and empty
// places a real city gives. Both forms take the same three uniform numbers and give the same point.

/** 70% of people within a normal spread of 4 km of the centre (cut at 40 km), 30% evenly over a disc of 25 km. */
export const METRO = { centreShare: 0.7, spreadM: 4000, cutM: 40_000, discM: 25_000 } as const

/** Metres per degree of latitude, and of longitude at the equator: the flat-map approximation the model uses. */
const M_PER_DEGREE = 111320

export interface Point { lat: number, lon: number }

/** The point of the metro area around `center` that the uniform numbers a, b, c in [0, 1) pick. */
export function metroPoint (center: Point, a: number, b: number, c: number): Point {
  const distance = a < METRO.centreShare
    ? Math.min(METRO.spreadM * Math.sqrt(-2 * Math.log(1 - b)), METRO.cutM)
    : METRO.discM * Math.sqrt(b)
  const north = distance * Math.cos(2 * Math.PI * c)
  const east = distance * Math.sin(2 * Math.PI * c)
  const lon = center.lon + east / (M_PER_DEGREE * Math.max(Math.cos(center.lat * Math.PI / 180), 0.01))
  return {
    lat: Math.max(-90, Math.min(90, center.lat + north / M_PER_DEGREE)),
    lon: lon - 360 * Math.floor((lon + 180) / 360),
  }
}

/** The same point in SQL, as the columns `latitude, longitude`; every argument is an SQL expression. */
export function metroPointSql (lat: string, lon: string, a: string, b: string, c: string): string {
  const distance = `CASE WHEN ${a} < ${METRO.centreShare} THEN least(${METRO.spreadM} * sqrt(-2 * ln(1 - ${b})), ${METRO.cutM}) ` +
    `ELSE ${METRO.discM} * sqrt(${b}) END`
  const north = `${distance} * cos(2 * pi() * ${c})`
  const east = `${distance} * sin(2 * pi() * ${c})`
  const rawLon = `${lon} + ${east} / (${M_PER_DEGREE} * greatest(cos(radians(${lat})), 0.01))`
  return `greatest(-90, least(90, ${lat} + ${north} / ${M_PER_DEGREE})) AS latitude,
    ${rawLon} - 360 * floor((${rawLon} + 180) / 360) AS longitude`
}

/** A random point of the metro area, drawn from a random stream (three numbers a point). */
export function randomMetroPoint (random: () => number, center: Point): Point {
  return metroPoint(center, random(), random(), random())
}
