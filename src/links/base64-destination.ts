import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { errors } from '../errors.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Description B sends destinations Base64-encoded (standard or URL-safe alphabet); this returns the text. */
export function decodeBase64Destination(encoded: unknown): string {
  if (encoded === undefined || encoded === null || encoded === '') throw errors.missingUrl();
  if (typeof encoded !== 'string') throw errors.invalidBase64('must be a Base64 string');
  const text = encoded.trim();
  const standard = BASE64.test(text) && text.length % 4 !== 1;
  if (!standard && !BASE64URL.test(text)) {
    throw errors.invalidBase64();
  }
  const bytes = Buffer.from(text, standard ? 'base64' : 'base64url');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw errors.invalidBase64('does not decode to UTF-8 text');
  }
}

/** A body may name its destination plainly (`url`) or in Base64 (`long`); undefined when it names neither. */
export function destinationOf(body: { url?: string; long?: string }): string | undefined {
  if (body.url !== undefined) return body.url;
  return body.long === undefined ? undefined : decodeBase64Destination(body.long);
}

/**
 * Description B's form of a link input (and of bulk items): the destination plain (`url`) or as Base64 (`long`),
 * every other field as the input has it. `destinationOf` reads the two back into one.
 */
export const withBase64 = <P extends TProperties & { url: TSchema }>(input: TObject<P>, description: string) => {
  const { url, ...rest } = input.properties;
  const { type: _type, properties: _properties, required: _required, ...options } = input as unknown as Record<string, unknown>;
  return Type.Object({ ...(rest as Omit<P, 'url'>), url: Type.Optional(url as P['url']), long: Type.Optional(Type.String({ description })) }, options);
};
