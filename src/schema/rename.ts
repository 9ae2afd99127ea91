import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';

/**
 * An operation's input under a surface's own field names (MCP's `slug` for `customSlug`): the same schemas, so a
 * renamed field keeps every rule, and `decode` turns the surface's arguments back into the operation's input.
 */
export function renamed<P extends TProperties>(input: TObject<P>, names: Partial<Record<keyof P & string, string>>, options: { additionalProperties?: boolean } = {}) {
  const back = new Map(Object.entries(names).map(([own, theirs]) => [theirs as string, own]));
  const properties = Object.fromEntries(Object.entries(input.properties).map(([name, schema]) => [(names as Record<string, string>)[name] ?? name, schema]));
  return {
    properties: properties as TProperties,
    schema: Type.Object(properties, options),
    decode: (args: Record<string, unknown>): Static<TObject<P>> =>
      Object.fromEntries(Object.entries(args).map(([name, value]) => [back.get(name) ?? name, value])) as Static<TObject<P>>,
  };
}
