/**
 * SQL with its parameters written in place: sql`SELECT ... WHERE id = ${id}` numbers the placeholders
 * itself, and fragments nest (`join`, `raw` for trusted text such as a column list, `empty`).
 * Every repository writes its statements this way (sql-template-tag).
 */
export { default as sql, join, raw, empty, Sql } from 'sql-template-tag'
