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
