import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/regular-help.js'
import { SERIES_BEHALF_ROWS } from './rows/series-behalf.js'

describeMatrix('regular-help', [...ROWS, ...SERIES_BEHALF_ROWS])
