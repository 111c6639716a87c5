import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/help.js'

describeMatrix('help', ROWS)
