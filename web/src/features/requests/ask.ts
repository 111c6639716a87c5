// Kept at the old address for features/volunteer/availability.tsx, so that it does not load the
// question pages (which would then be shared, and go into the chunk every page loads).
export { REQUEST_TYPES } from './keys'
