/** Reads a coordinate typed with a point or a comma ("52,52" is how German writes 52.52). */
export function parseCoordinate (text: string, limit: number): number | undefined {
  const value = Number(text.trim().replace(',', '.'))
  return text.trim() !== '' && Number.isFinite(value) && Math.abs(value) <= limit ? value : undefined
}
