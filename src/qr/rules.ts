import { appError, errors } from '../errors.js';

/** QR error correction levels, weakest (7% of the code can be damaged) to strongest (30%). */
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type ErrorCorrection = (typeof ERROR_CORRECTION_LEVELS)[number];

/** Spec 8.4: 100-1000 pixels, default 300. */
export const MIN_SIZE = 100;
export const MAX_SIZE = 1000;
/** The quiet zone, in modules. 4 is the minimum ISO/IEC 18004 asks for; less saves room on a plain page. */
export const MIN_MARGIN = 0;
export const MAX_MARGIN = 10;
export const HEX_COLOR_PATTERN = '^[0-9A-Fa-f]{6}$';
const HEX_COLOR = new RegExp(HEX_COLOR_PATTERN);

/** How one image is drawn. Colors are six upper-case hex digits without '#'. */
export interface QrOptions {
  size: number;
  color: string;
  bgColor: string;
  margin: number;
  errorCorrection: ErrorCorrection;
}

export const DEFAULT_OPTIONS: Readonly<QrOptions> = { size: 300, color: '000000', bgColor: 'FFFFFF', margin: 4, errorCorrection: 'M' };

/**
 * The rules of every field, shared by the image parameters (HTTP query, MCP arguments) and the saved settings.
 * Each takes an unknown value, so a caller that skipped schema validation (MCP) gets the same codes as HTTP.
 */
export function checkSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_SIZE || value > MAX_SIZE) {
    throw errors.invalidSize(`size must be a whole number of pixels from ${MIN_SIZE} to ${MAX_SIZE}`);
  }
  return value;
}

export function checkColor(value: unknown, field: 'color' | 'bgColor'): string {
  if (typeof value !== 'string' || !HEX_COLOR.test(value)) {
    const rule = "must be exactly 6 hex digits without '#', such as 1A2B3C";
    throw field === 'color' ? errors.invalidColor(rule) : errors.invalidBgColor(rule);
  }
  // One spelling per color, so the ETag and the cache see `ff0000` and `FF0000` as the same image.
  return value.toUpperCase();
}

export function checkMargin(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_MARGIN || value > MAX_MARGIN) {
    throw errors.invalidMargin(MIN_MARGIN, MAX_MARGIN);
  }
  return value;
}

export function checkErrorCorrection(value: unknown, code: 'INVALID_ECC' | 'INVALID_ERROR_CORRECTION'): ErrorCorrection {
  if (typeof value !== 'string' || !(ERROR_CORRECTION_LEVELS as readonly string[]).includes(value)) {
    throw appError(code, ERROR_CORRECTION_LEVELS);
  }
  return value as ErrorCorrection;
}

/** The parameters of one image request; each is optional and overrides the owner's saved setting. */
export interface ImageParams {
  size?: unknown;
  color?: unknown;
  bgColor?: unknown;
  margin?: unknown;
  /** Named as in the query string (`?ecc=H`); the saved setting is `errorCorrection`. */
  ecc?: unknown;
}

/** The fields of a settings change; each is optional, and only those given change. */
export interface SettingsInput {
  size?: unknown;
  color?: unknown;
  bgColor?: unknown;
  margin?: unknown;
  errorCorrection?: unknown;
}

/** The image parameters that were given, checked; absent ones stay absent so the settings can fill them. */
export function checkImageParams(params: ImageParams): Partial<QrOptions> {
  const checked: Partial<QrOptions> = {};
  if (params.size !== undefined) checked.size = checkSize(params.size);
  if (params.color !== undefined) checked.color = checkColor(params.color, 'color');
  if (params.bgColor !== undefined) checked.bgColor = checkColor(params.bgColor, 'bgColor');
  if (params.margin !== undefined) checked.margin = checkMargin(params.margin);
  if (params.ecc !== undefined) checked.errorCorrection = checkErrorCorrection(params.ecc, 'INVALID_ECC');
  return checked;
}

/** A settings change, checked; a change naming no field is refused rather than saved as a silent no-op. */
export function checkSettingsInput(input: SettingsInput): Partial<QrOptions> {
  const checked: Partial<QrOptions> = {};
  if (input.size !== undefined) checked.size = checkSize(input.size);
  if (input.color !== undefined) checked.color = checkColor(input.color, 'color');
  if (input.bgColor !== undefined) checked.bgColor = checkColor(input.bgColor, 'bgColor');
  if (input.margin !== undefined) checked.margin = checkMargin(input.margin);
  if (input.errorCorrection !== undefined) checked.errorCorrection = checkErrorCorrection(input.errorCorrection, 'INVALID_ERROR_CORRECTION');
  if (Object.keys(checked).length === 0) {
    throw errors.invalidBody('Give at least one of color, bgColor, size, errorCorrection, margin');
  }
  return checked;
}
