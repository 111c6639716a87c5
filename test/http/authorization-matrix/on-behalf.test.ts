import { describeMatrix } from './matrix.js'
import { ROWS } from './rows/on-behalf.js'

describeMatrix('on-behalf', ROWS)
