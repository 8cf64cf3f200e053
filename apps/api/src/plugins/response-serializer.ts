import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = z.ZodType | { properties: z.ZodType };
type JsonSchema = { [key: string]: unknown };

const zodSerializer = createSerializerCompiler();

/** Keywords that check a value rather than say what it is: the shape is all a serializer needs. */
const CHECKS = new Set([
  '$schema',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
]);

/**
 * The JSON Schema of a response's shape only. fast-json-stringify picks the branch of a nullable
 * or union field by validating the value against the branch's JSON Schema, with its own validator,
 * which is stricter than zod in places (`format: uri` refuses `https://café.example`, which zod
 * takes): a value the handler may return must never fail on the way out. So the checks go, a
 * nullable scalar becomes a plain type list, and `additionalProperties: false` goes too (fields a
 * schema does not declare are never written anyway).
 */
export function shapeOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shapeOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const shape: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (CHECKS.has(key) || (key === 'additionalProperties' && value === false)) continue;
    shape[key] = key === 'properties' || key === '$defs' || key === 'definitions' ? mapValues(value as JsonSchema, shapeOf) : shapeOf(value);
  }
  const branches = shape.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const [a, b] = branches as JsonSchema[];
    const other = a?.type === 'null' ? b : b?.type === 'null' ? a : null;
    if (other && typeof other.type === 'string' && other.type !== 'object' && other.type !== 'array' && Object.keys(other).length === 1) {
      delete shape.anyOf;
      shape.type = [other.type, 'null'];
    }
  }
  return shape;
}

const mapValues = (object: JsonSchema, f: (v: unknown) => unknown): JsonSchema => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

/**
 * Writes responses with fast-json-stringify, compiled once per route from the route's zod
 * schema (as JSON Schema, shape only): only declared fields go out, a missing required field is
 * an error, and no copy of the payload is made on the way. Validating every response with zod
 * before `JSON.stringify` cost a list page about twice as much and as much garbage again (ADR
 * 010); the handlers' return types are checked against the same schemas at compile time.
 * A schema JSON Schema cannot express falls back to zod's serializer.
 */
export const responseSerializer: FastifySerializerCompiler<RouteSchema> = (route) => {
  const schema = route.schema instanceof z.ZodType ? route.schema : route.schema.properties;
  try {
    return fastJson(shapeOf(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' })) as Parameters<typeof fastJson>[0]);
  } catch {
    return zodSerializer(route);
  }
};
