/** CAST(x AS type) / CONVERT(x, type) targets of node-sql-parser -> a ColumnType. */
import { makeType, type ColumnType } from '../../types/index.js';
import { str, type Obj } from './guards.js';
import { notSupported } from './parse-error.js';

/** CAST/CONVERT target -> ColumnType. */
export function castTarget(t: Obj | undefined): ColumnType {
  const name = (str(t ?? {}, 'dataType') ?? '').toUpperCase();
  const len = typeof t?.['length'] === 'number' ? t['length'] : undefined;
  const scale = typeof t?.['scale'] === 'number' ? t['scale'] : undefined;
  const suffix = JSON.stringify(t?.['suffix'] ?? '').toUpperCase();
  switch (name) {
    case 'SIGNED':
    case 'INT':
    case 'INTEGER':
      return makeType('bigint', { unsigned: suffix.includes('UNSIGNED') });
    case 'UNSIGNED':
      return makeType('bigint', { unsigned: true });
    case 'CHAR':
    case 'NCHAR':
    case 'VARCHAR':
      return makeType('varchar', { length: len ?? -1 });
    case 'BINARY':
      return makeType('varbinary', { length: len ?? -1 });
    case 'DECIMAL':
    case 'NUMERIC':
      return makeType('decimal', { length: len ?? 10, scale: scale ?? 0 });
    case 'DATE':
    case 'JSON':
    case 'YEAR':
    case 'FLOAT':
    case 'DOUBLE':
      return makeType(name === 'DATE' ? 'date' : name === 'JSON' ? 'json' : name === 'YEAR' ? 'year' : name === 'FLOAT' ? 'float' : 'double');
    case 'DATETIME':
    case 'TIME':
    case 'TIMESTAMP':
      return makeType(name === 'TIME' ? 'time' : 'datetime', { scale: len ?? 0 });
    default:
      throw notSupported(`CAST AS ${name}`);
  }
}
