/** The JSON value model, its text parser/serializer, path expressions and edits. */
export type { JsonValue, JsonObject } from './json-value.js';
export { compareJson, jsonEquals, jsonTypeName, cloneJson, sortedKeys, isJsonObject, isJsonArray } from './json-value.js';
export { parseJson, isValidJson, JsonSyntaxError, MAX_JSON_DEPTH } from './json-parse.js';
export { serializeJson, quoteJsonString, jsonDouble, prettyJson } from './json-serialize.js';
export { parsePath, findAll, type JsonPath, type PathLeg, type JsonLocation } from './json-path.js';
export { setPath, removePath, arrayAppend, arrayInsert, mergePatch, mergePreserve, jsonContains, type SetMode } from './json-edit.js';
export { docArg, valueToJson, pathArg, jsonResult, parseDocText, toJsonText, type ArgKind } from './json-sql.js';
