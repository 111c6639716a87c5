import type { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'

/**
 * ajv-formats' plugin with its real type: the package is CommonJS with a default export, which ESM
 * sees as the module object. One place, so the API's validators and the configuration's agree.
 */
export const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv
