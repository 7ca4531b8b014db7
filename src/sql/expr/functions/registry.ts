/** All built-in scalar functions by upper-case name. */
import { CONTROL_FUNCTIONS } from './control.js';
import { DATE_ADD_FUNCTIONS } from './date-add.js';
import { DATETIME_FUNCTIONS } from './datetime.js';
import type { FunctionDef, FunctionTable } from './function-def.js';
import { INFO_FUNCTIONS } from './info.js';
import { MATH_FUNCTIONS } from './math.js';
import { STRING_FUNCTIONS } from './string.js';
import { CODE_FUNCTIONS } from './string-codes.js';

const REGISTRY: FunctionTable = {
  ...INFO_FUNCTIONS,
  ...CONTROL_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...CODE_FUNCTIONS,
  ...DATETIME_FUNCTIONS,
  ...DATE_ADD_FUNCTIONS,
};

export function lookupFunction(name: string): FunctionDef | undefined {
  return Object.prototype.hasOwnProperty.call(REGISTRY, name) ? REGISTRY[name] : undefined;
}

export function functionNames(): string[] {
  return Object.keys(REGISTRY);
}
