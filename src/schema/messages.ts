import { AppError, errors, type FieldCode } from '../errors.js';

/**
 * What a schema asked of a value and did not get. Ajv reports it in its own words (REST bodies and queries, MCP tool
 * arguments; src/schema/issues.ts translates), and so a field breaks the same rule with the same code and sentence everywhere.
 */
export type BrokenRule =
  | { rule: 'required' }
  | { rule: 'choice'; values: readonly unknown[] }
  | { rule: 'atLeast' | 'atMost' | 'above' | 'below'; limit: number }
  | { rule: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minFields'; limit: number }
  | { rule: 'type'; type: string }
  | { rule: 'format'; format: string }
  | { rule: 'pattern'; pattern?: string }
  | { rule: 'unknownField'; name: string }
  | { rule: 'invalid' };

/** A path into the input: property names and array indexes, e.g. ['links', 0, 'url']. */
export type FieldPath = ReadonlyArray<string | number>;

/** Field names whose codes read better under another name (a slug is a slug, `long` is B's url). */
const FIELD_CODES: Record<string, string> = { customSlug: 'SLUG', long: 'URL', shortPath: 'SHORT_PATH' };

const codeOf = (field: string): string =>
  FIELD_CODES[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/** JSON types as a sentence ends them: "maxClicks must be an integer". */
const TYPES: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  'date-time': 'an ISO 8601 date-time, like 2026-12-31T23:59:59Z',
  date: 'a date, like 2026-12-31',
  uri: 'a URL',
  email: 'an email address',
};

/** The patterns the API's schemas use, said in words; another pattern reads "has an invalid format". */
const PATTERNS: Record<string, string> = {
  '^[0-9A-Fa-f]{6}$': 'must be 6 hex digits without #, like 1A2B3C',
  '^#[0-9A-Fa-f]{6}$': 'must be # and 6 hex digits, like #1A2B3C',
  '^[A-Za-z]{2}$': 'must be a two-letter country code, like DE',
  '^[a-zA-Z0-9-]+$': 'may contain only letters, digits and hyphens',
  '^[A-Za-z0-9]{6}$': 'must be 6 letters or digits',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `links[0].url`: the field as the caller wrote it. */
const labelOf = (path: FieldPath): string =>
  path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

function sentence(field: string, broken: BrokenRule): string {
  switch (broken.rule) {
    case 'required':
      return `${field} is required`;
    case 'choice':
      return broken.values.length === 1 ? `${field} must be ${String(broken.values[0])}` : `${field} must be one of ${broken.values.map(String).join(', ')}`;
    case 'atLeast':
      return `${field} must be at least ${broken.limit}`;
    case 'atMost':
      return `${field} must be at most ${broken.limit}`;
    case 'above':
      return `${field} must be greater than ${broken.limit}`;
    case 'below':
      return `${field} must be less than ${broken.limit}`;
    case 'minLength':
      return broken.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${plural(broken.limit, 'character')}`;
    case 'maxLength':
      return `${field} must be at most ${plural(broken.limit, 'character')}`;
    case 'minItems':
      return `${field} must list at least ${plural(broken.limit, 'item')}`;
    case 'maxItems':
      return `${field} must list at most ${plural(broken.limit, 'item')}`;
    case 'minFields':
      return `${field} must have at least ${plural(broken.limit, 'field')}`;
    case 'type':
      return `${field} must be ${broken.type.split(',').map((t) => TYPES[t] ?? t).join(' or ')}`;
    case 'format':
      return `${field} must be ${FORMATS[broken.format] ?? `a valid ${broken.format}`}`;
    case 'pattern':
      return `${field} ${(broken.pattern && PATTERNS[broken.pattern]) ?? 'has an invalid format'}`;
    case 'unknownField':
      return `${field} has an unknown field "${broken.name}"`;
    case 'invalid':
      return `${field} is invalid`;
  }
}

/**
 * The error for an input that breaks a schema rule. The code names the top-level field the problem is in, so each
 * field has one code however deep the problem lies (`notFoundPage.type` is INVALID_NOT_FOUND_PAGE, as the service
 * that judges the whole page says): `MISSING_<FIELD>` when the field itself is absent, `INVALID_<FIELD>` otherwise,
 * `INVALID_BODY` for the input as a whole. The message names the exact place (`links[0].url is required`).
 * `whole` names the input when the rule is about all of it (REST: "The body", "The query"; MCP: "The arguments").
 */
export function validationError(path: FieldPath, broken: BrokenRule, whole = 'The request'): AppError {
  const field = typeof path[0] === 'string' ? path[0] : undefined;
  if (field === undefined) {
    // An update naming nothing says so in the words of the services' own check (requireChange).
    if (broken.rule === 'minFields' && broken.limit === 1) return errors.invalidBody();
    if (broken.rule === 'unknownField') return errors.invalidBody(`Unknown field "${broken.name}"`);
    return errors.invalidBody(sentence(whole, broken));
  }
  if (broken.rule === 'required' && path.length === 1) {
    // The destination has always been refused with these words, by the schema and by the link rules alike.
    if (codeOf(field) === 'URL') return errors.missingUrl();
    return new AppError(missingCode(field), sentence(field, broken));
  }
  return new AppError(invalidCode(field), sentence(labelOf(path), broken));
}

/** The field codes of the catalogue's pattern entry (src/errors/catalogue.ts), for one field. */
const missingCode = (field: string): FieldCode => `MISSING_${codeOf(field)}`;
const invalidCode = (field: string): FieldCode => `INVALID_${codeOf(field)}`;

/** The parts of a JSON schema `validationCodes` reads. */
interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: readonly string[];
  additionalProperties?: unknown;
  minProperties?: number;
  anyOf?: readonly ObjectSchema[];
  oneOf?: readonly ObjectSchema[];
  allOf?: readonly ObjectSchema[];
}

/**
 * The concrete codes `validationError` can give for an input checked against `schema` (a route's body, query or
 * path schema): `INVALID_<FIELD>` for each property, `MISSING_<FIELD>` for each required one, and `INVALID_BODY`
 * when a rule is about the input as a whole (`whole`: every body; a query or path only if it refuses unknown
 * fields or asks for a number of them). This is how the OpenAPI lists the field codes of each operation.
 */
export function validationCodes(schema: unknown, whole: boolean): FieldCode[] {
  const codes = new Set<FieldCode>();
  const visit = (node: ObjectSchema | undefined) => {
    if (!node || typeof node !== 'object') return;
    if (node.additionalProperties === false || node.minProperties !== undefined) whole = true;
    for (const field of Object.keys(node.properties ?? {})) codes.add(invalidCode(field));
    for (const field of node.required ?? []) codes.add(missingCode(field));
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) visit(branch);
  };
  visit(schema as ObjectSchema | undefined);
  if (whole) codes.add('INVALID_BODY');
  return [...codes].sort();
}
