import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/regular-help.js'

describeMatrix('regular-help', ROWS)
