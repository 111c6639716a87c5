/**
 * Markers whose centres are closer than this many pixels are drawn as one: a marker is 28 px wide, and
 * WCAG 2.5.8 (axe's target-size rule) wants each target clear of the others by 24 px. 36 px leaves a gap.
 */
export const GROUP_DISTANCE_PX = 36

/**
 * The markers as they can be drawn at one zoom without overlapping: each group is one marker, or several
 * that would cover each other there (two requests 450 m apart on a map of a 5 km circle are 20 px apart).
 * Greedy in the given order (the service gives the nearest the middle first): a marker joins the first
 * group whose first marker is near it, so each group stays where its first marker is.
 */
export function groupMarkers<Marker> (markers: readonly Marker[], toPixels: (marker: Marker) => { x: number, y: number }): Marker[][] {
  const groups: Array<{ at: { x: number, y: number }, members: Marker[] }> = []
  for (const marker of markers) {
    const at = toPixels(marker)
    const near = groups.find((group) => Math.hypot(group.at.x - at.x, group.at.y - at.y) < GROUP_DISTANCE_PX)
    if (near !== undefined) near.members.push(marker)
    else groups.push({ at, members: [marker] })
  }
  return groups.map((group) => group.members)
}
