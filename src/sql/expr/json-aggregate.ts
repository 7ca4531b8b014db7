/**
 * JSON_ARRAYAGG (NULLs become JSON null; no rows: NULL) and JSON_OBJECTAGG (fed the text of
 * JSON_OBJECT(key, value) per row; a later duplicate key wins; no rows: NULL).
 */
import type { ColumnType, Value } from '../../types/index.js';
import { jsonResult, parseJson, valueToJson, type JsonObject, type JsonValue } from './json/index.js';

interface JsonAggregator {
  add(v: Value): void;
  result(): Value;
}

export function jsonArrayAgg(argType: ColumnType): JsonAggregator {
  const items: JsonValue[] = [];
  const kind = { json: argType.kind === 'json', bool: false, type: argType };
  return {
    add: (v) => {
      items.push(valueToJson(v, kind));
    },
    result: () => (items.length === 0 ? null : jsonResult(items)),
  };
}

export function jsonObjectAgg(): JsonAggregator {
  const out: JsonObject = new Map();
  let rows = 0;
  return {
    add: (v) => {
      rows++;
      if (typeof v !== 'string') return;
      const o = parseJson(v);
      if (!(o instanceof Map)) return;
      for (const [k, x] of o) {
        out.delete(k);
        out.set(k, x);
      }
    },
    result: () => (rows === 0 ? null : jsonResult(out)),
  };
}
