// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const ALL_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** True when text holds a C0 or C1 control character (NUL, line breaks, escapes…): never part of a name or a URL. */
export const hasControlCharacters = (text: string): boolean => CONTROL_CHARACTERS.test(text);

/** The text without control characters, for values Snip keeps as a client gave them (an MCP client's name). */
export const withoutControlCharacters = (text: string): string => text.replace(ALL_CONTROL_CHARACTERS, '');

/** The text with control characters percent-encoded: for a URL a source gave, kept as readable and storable text. */
export const controlCharactersEncoded = (text: string): string => text.replace(ALL_CONTROL_CHARACTERS, (c) => encodeURIComponent(c));
