/** All built-in scalar functions by upper-case name. */
import { COLLATE_FUNCTIONS } from './collate.js';
import { CONTROL_FUNCTIONS } from './control.js';
import { DATE_ADD_FUNCTIONS } from './date-add.js';
import { DATETIME_FUNCTIONS } from './datetime.js';
import type { FunctionDef, FunctionTable } from './function-def.js';
import { INFO_FUNCTIONS } from './info.js';
import { JSON_FUNCTIONS } from './json.js';
import { JSON_EDIT_FUNCTIONS } from './json-edit.js';
import { JSON_SEARCH_FUNCTIONS } from './json-search.js';
import { MATH_FUNCTIONS } from './math.js';
import { STRING_FUNCTIONS } from './string.js';
import { CODE_FUNCTIONS } from './string-codes.js';
import { STRING_MORE_FUNCTIONS } from './string-more.js';
import { REGEXP_FUNCTIONS } from './regexp.js';
import { MATH_MORE_FUNCTIONS } from './math-more.js';
import { MISC_FUNCTIONS } from './misc.js';
import { DATETIME_MORE_FUNCTIONS } from './datetime-more.js';
import { DATETIME_UNIT_FUNCTIONS } from './datetime-units.js';
import { STR_TO_DATE_FUNCTIONS } from './str-to-date.js';
import { ASYNC_FUNCTIONS } from './async-functions.js';
import { MISC_MORE_FUNCTIONS } from './misc-more.js';

const REGISTRY: FunctionTable = {
  ...COLLATE_FUNCTIONS,
  ...INFO_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...JSON_EDIT_FUNCTIONS,
  ...JSON_SEARCH_FUNCTIONS,
  ...CONTROL_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...CODE_FUNCTIONS,
  ...DATETIME_FUNCTIONS,
  ...DATE_ADD_FUNCTIONS,
  ...STRING_MORE_FUNCTIONS,
  ...REGEXP_FUNCTIONS,
  ...MATH_MORE_FUNCTIONS,
  ...MISC_FUNCTIONS,
  ...DATETIME_MORE_FUNCTIONS,
  ...DATETIME_UNIT_FUNCTIONS,
  ...STR_TO_DATE_FUNCTIONS,
  ...ASYNC_FUNCTIONS,
  ...MISC_MORE_FUNCTIONS,
};

export function lookupFunction(name: string): FunctionDef | undefined {
  return Object.prototype.hasOwnProperty.call(REGISTRY, name) ? REGISTRY[name] : undefined;
}

export function functionNames(): string[] {
  return Object.keys(REGISTRY);
}
