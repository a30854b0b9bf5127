/**
 * Schema-based request fuzzing (issue 20 part 3): fast-check arbitraries built from the JSON
 * schemas of the OpenAPI document, both values a schema accepts and values meant to break it
 * (wrong types, missing and extra fields, huge strings, hostile unicode, extreme numbers).
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface Endpoint {
  method: string;
  path: string;
  op: OpenApiOperation;
}

export function endpointsOf(doc: OpenApiDocument): Endpoint[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    )
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** Strings that have broken parsers, databases, loggers and renderers somewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  'x\ud83d',
  '\u202eevil\u202c', // right-to-left override
  '\u200f\u200e\u061c',
  'مرحبا',
  '👩‍👩‍👧‍👦',
  'Z̸̢͔̈́a̵̹̓l̷̰̈g̸͍̓o̶̞͝',
  '\ufeff',
  '\uffff',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; drop table users; --',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '../../etc/passwd',
  '%00',
  '%',
  '\\',
  '"',
  '\r\n',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  '9223372036854775808',
  '__proto__',
  'x'.repeat(10_000),
  'é'.repeat(5_000),
  '😀'.repeat(3_000),
];

/** Numbers at and past every edge an integer column or a JS number has. */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  -1.5,
  2147483647,
  2147483648,
  -2147483649,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** JSON texts JSON.stringify cannot produce. */
export const NASTY_JSON_TEXTS: readonly string[] = [
  '',
  ' ',
  '{',
  '[',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  'null',
  'true',
  '0',
  '"x"',
  '[]',
  '{"a":1e999}',
  '{"id":9223372036854775808}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":1}{"b":2}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000),
  '\ufeff{}',
  '\u0000',
];

export const BAD_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/octet-stream',
  '*/*',
  'image/png',
  ';;;',
];

/** Path values that are no id: zero, negative, past 64 bits, words, traversal, very long… */
export const BAD_IDS: readonly string[] = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '9223372036854775808',
  '18446744073709551616',
  '99999999999999999999999999',
  'abc',
  'null',
  'undefined',
  'NaN',
  '0x1',
  ' 1',
  '1 ',
  '../x',
  '..',
  '.',
  '%2e%2e%2fx',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80', // an encoded lone surrogate
  '%F0%9F%98%80',
  'x'.repeat(1_000),
  '1'.repeat(2_000),
];

const clampLen = (n: number | undefined, dflt: number) => (n === undefined ? dflt : n);

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  return [];
}

/** Values the schema accepts (as far as JSON Schema can say; patterns included). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validValue(s, depth)));
  const ts = types(schema);
  if (ts.length > 1) return fc.oneof(...ts.map((type) => validValue({ ...schema, type }, depth)));
  switch (ts[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      let min = schema.minimum ?? -(2 ** 31);
      if (schema.exclusiveMinimum === true) min += ts[0] === 'integer' ? 1 : Number.EPSILON;
      else if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + 1;
      const max = Math.min(schema.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER);
      return ts[0] === 'integer'
        ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string': {
      const minLength = clampLen(schema.minLength, 0);
      const maxLength = Math.min(clampLen(schema.maxLength, 60), 60);
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        try {
          return fc
            .stringMatching(re)
            .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
        } catch {
          // fast-check cannot generate from every regex (lookaheads): plain text then.
        }
      }
      return fc.oneof(
        fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }),
        fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'binary' }),
        fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' }),
      );
    }
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(validValue(schema.items ?? {}, depth + 1), { maxLength: 4 });
    case 'object': {
      const props = schema.properties ?? {};
      if (depth > 3 || Object.keys(props).length === 0) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) model[k] = validValue(s, depth + 1);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values meant to be refused: wrong types, edges and past them, hostile text, mutilated objects. */
export function badValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const anything = fc.oneof(
    fc.constantFrom<unknown>(null, true, false, [], {}, '', 0, -1, 'x'.repeat(200_000)),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const ts = types(schema);
  const specific: fc.Arbitrary<unknown>[] = [];
  if (ts.includes('string')) {
    const max = schema.maxLength;
    specific.push(fc.constantFrom(...NASTY_STRINGS));
    if (max !== undefined) specific.push(fc.constant('a'.repeat(max + 1)));
    specific.push(fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }));
  }
  if (ts.includes('integer') || ts.includes('number')) {
    specific.push(fc.constantFrom(...NASTY_NUMBERS));
    if (schema.minimum !== undefined) specific.push(fc.constant(schema.minimum - 1));
    if (schema.maximum !== undefined) specific.push(fc.constant(schema.maximum + 1));
    specific.push(fc.constantFrom('1', '1.0', '-1', ' 2 ', '0x1f'));
  }
  if (ts.includes('object') && schema.properties && depth < 3) {
    const props = schema.properties;
    const keys = Object.keys(props);
    const base = validValue(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
    // One field of the wrong kind.
    specific.push(
      fc
        .tuple(base, fc.constantFrom(...keys))
        .chain(([obj, key]) => badValue(props[key]!, depth + 1).map((v) => ({ ...obj, [key]: v }))),
    );
    // A required field missing.
    if (schema.required?.length) {
      specific.push(
        fc.tuple(base, fc.constantFrom(...schema.required)).map(([obj, key]) => {
          const copy = { ...obj };
          delete copy[key];
          return copy;
        }),
      );
    }
    // Fields nobody asked for (prototype keys too).
    specific.push(
      fc
        .tuple(
          base,
          fc.dictionary(
            fc.oneof(
              fc.constantFrom('__proto__', 'constructor', 'role', 'userId', 'id'),
              fc.string(),
            ),
            anything,
            { maxKeys: 3 },
          ),
        )
        .map(([obj, extra]) => Object.assign(Object.create(null), obj, extra)),
    );
  }
  if (ts.includes('array') && depth < 3) {
    specific.push(fc.array(badValue(schema.items ?? {}, depth + 1), { maxLength: 3 }));
    specific.push(fc.constant(Array.from({ length: 10_000 }, () => 1)));
  }
  return specific.length ? fc.oneof(anything, ...specific) : anything;
}

/** Mostly refused values, sometimes accepted ones (so the code past validation runs too). */
export function anyValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: validValue(schema), weight: 2 },
    { arbitrary: badValue(schema), weight: 3 },
  );
}

/** A value as it travels in a path or query: JSON scalars as text. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** encodeURIComponent that survives lone surrogates (it throws on them). */
export function encodeLoose(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A JSON text truncated somewhere inside. */
export function truncatedJson(value: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(value) ?? 'null';
  if (text.length < 2) return fc.constant('{');
  return fc.integer({ min: 1, max: text.length - 1 }).map((n) => text.slice(0, n));
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Enough to replay a request by hand (bodies are cut after 2,000 characters). */
export function describeRequest(r: FuzzRequest): string {
  const body =
    r.payload === undefined
      ? '(none)'
      : Buffer.isBuffer(r.payload)
        ? `<${r.payload.length} bytes> ${r.payload.subarray(0, 64).toString('hex')}…`
        : JSON.stringify(r.payload.length > 2000 ? `${r.payload.slice(0, 2000)}…` : r.payload);
  const url = r.url.length > 2000 ? `${r.url.slice(0, 2000)}…(${r.url.length} chars)` : r.url;
  return `${r.method} ${url}\nheaders: ${JSON.stringify(r.headers)}\nbody: ${body}`;
}
