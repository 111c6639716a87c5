/** The English texts of the start page (START_TEXTS), made by the build's start-texts step (web/vite.config.ts). */
declare module '*/en.json?start' {
  const texts: Record<string, unknown>
  export default texts
}
