/**
 * Internal: the JSON types of an API object checked as the API server decodes it (encoding/json into the Go types,
 * whose schema `_api-types.ts` holds, generated from the pinned version's OpenAPI schema). A field of another JSON type
 * is what the server refuses before any validation (`cannot unmarshal string into Go struct field
 * SecurityContext.spec.template.spec.containers.securityContext.privileged of type bool`): the library reports it,
 * naming the field, and never reads such a value as something else (`"true"` as true, a mapping as a name).
 *
 * `null` is accepted anywhere, as the decoder takes it for "unset". Fields the schema does not know are left alone
 * (strict field validation is another matter).
 */
import { API_DEFINITIONS, API_ROOTS } from './_api-types';
import { describe, isObject } from './_pod-spec';

/** a field of the wrong JSON type. */
export interface ApiTypeError {
  /** the JSON path of the field in the object: `spec.template.spec.containers[0].securityContext.privileged`. */
  readonly field: string;
  /** what is wrong, naming the type expected and the value received, without a trailing period. */
  readonly message: string;
  /** how to write the value. */
  readonly fix: string;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** the definition of an object's kind, when the table has it (apiVersion and kind as the API serves them). */
export function apiDefinitionOf(object: any): string | undefined {
  if (!isObject(object) || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') return undefined;
  const key = `${object.apiVersion}/${object.kind}`;
  return Object.prototype.hasOwnProperty.call(API_ROOTS, key) ? API_ROOTS[key] : undefined;
}

/**
 * The fields of an object whose JSON type the API server refuses, in field order (at most `max`).
 *
 * @param definition the object's definition (`apiDefinitionOf`), or another definition of the table for a part
 * @param at the JSON path of `value`, '' for a whole object
 */
export function apiTypeErrors(value: unknown, definition: string, at = '', max = 20): ApiTypeError[] {
  const errors: ApiTypeError[] = [];
  check(value, definition, at, errors, max);
  return errors;
}

function join(at: string, field: string): string {
  return at === '' ? field : `${at}.${field}`;
}

function expected(type: string): string {
  if (type.startsWith('[]')) return 'a list';
  if (type === '{}quantity') return 'an object (of quantities such as "100m")';
  if (type.startsWith('{}')) return `an object (of ${expected(type.slice(2)).replace(/^an? /, '')} values)`;
  switch (type) {
    case 'string': return 'a string';
    case 'boolean': return 'a boolean';
    case 'number': return 'a number';
    case 'integer': return 'an integer';
    case 'int32': return 'an integer (32 bits)';
    case 'int-or-string': return 'an integer or a string';
    case 'quantity': return 'a quantity (a string such as "100m", or a number)';
    case 'object': return 'an object';
    default: return `an object (${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type})`;
  }
}

function fixFor(type: string, value: unknown): string {
  if (typeof value === 'string') {
    if (type === 'boolean' && (value === 'true' || value === 'false')) return `write ${value} without quotes: "${value}" is a string, not a boolean`;
    if ((type === 'integer' || type === 'int32' || type === 'number') && /^-?[0-9]+$/.test(value)) return `write ${value} without quotes: "${value}" is a string, not a number`;
  }
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return `quote it ("${String(value)}"): YAML reads an unquoted ${String(value)} as a ${typeof value}`;
  }
  if (type.startsWith('[]')) return 'write it as a YAML/JSON list';
  if (type.startsWith('{}') || !['string', 'boolean', 'number', 'integer', 'int32', 'int-or-string', 'quantity'].includes(type)) return 'write it as a YAML/JSON mapping';
  if (type === 'boolean') return 'write true or false, without quotes';
  return `write it as ${expected(type)}`;
}

function wrong(at: string, type: string, value: unknown, errors: ApiTypeError[]): void {
  errors.push({ field: at, message: `${at} must be ${expected(type)}, got ${describe(value)}`, fix: fixFor(type, value) });
}

function check(value: unknown, type: string, at: string, errors: ApiTypeError[], max: number): void {
  if (errors.length >= max || value === null || value === undefined || type === 'any') return;
  if (type.startsWith('[]')) {
    if (!Array.isArray(value)) return wrong(at, type, value, errors);
    value.forEach((v, i) => check(v, type.slice(2), `${at}[${i}]`, errors, max));
    return;
  }
  if (type.startsWith('{}')) {
    if (!isObject(value)) return wrong(at, type, value, errors);
    for (const [k, v] of Object.entries(value as object)) check(v, type.slice(2), /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? join(at, k) : `${at}[${JSON.stringify(k)}]`, errors, max);
    return;
  }
  switch (type) {
    case 'string': if (typeof value !== 'string') wrong(at, type, value, errors); return;
    case 'boolean': if (typeof value !== 'boolean') wrong(at, type, value, errors); return;
    case 'number': if (typeof value !== 'number') wrong(at, type, value, errors); return;
    case 'integer': if (!Number.isInteger(value)) wrong(at, type, value, errors); return;
    case 'int32': if (!Number.isInteger(value) || (value as number) < INT32_MIN || (value as number) > INT32_MAX) wrong(at, type, value, errors); return;
    case 'int-or-string':
      if (typeof value !== 'string' && (!Number.isInteger(value) || (value as number) < INT32_MIN || (value as number) > INT32_MAX)) wrong(at, type, value, errors);
      return;
    case 'quantity': if (typeof value !== 'string' && typeof value !== 'number') wrong(at, type, value, errors); return;
    case 'object': if (!isObject(value)) wrong(at, type, value, errors); return;
  }
  const fields = Object.prototype.hasOwnProperty.call(API_DEFINITIONS, type) ? API_DEFINITIONS[type] : undefined;
  if (fields === undefined) throw new Error(`internal error: no API definition ${type}`);
  if (!isObject(value)) return wrong(at, type, value, errors);
  for (const [field, v] of Object.entries(value as object)) {
    if (Object.prototype.hasOwnProperty.call(fields, field)) check(v, fields[field], join(at, field), errors, max);
  }
}
