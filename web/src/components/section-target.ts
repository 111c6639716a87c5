import { useEffect } from 'react'
import { useLocation } from 'react-router'

/**
 * A link to a section of another page (`/profile#texts`) lands on that section, as a browser does for the fragment of a
 * page it loads itself: once the section is shown (`ready`), its heading (`<id>-heading`, tabIndex -1) takes focus and
 * is scrolled to the top. Two frames after the section appears, so that it comes after the focus every navigation puts
 * on the page's h1 (app.tsx), whose title is still said; a keyboard user then goes on from the section, not from the top.
 */
export function useSectionTarget (id: string, ready: boolean): void {
  const { hash } = useLocation()
  useEffect(() => {
    if (!ready || hash !== `#${id}`) return
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        const heading = document.getElementById(`${id}-heading`)
        heading?.scrollIntoView({ block: 'start' })
        heading?.focus({ preventScroll: true })
      })
    })
    return () => { cancelAnimationFrame(frame) }
  }, [id, ready, hash])
}
