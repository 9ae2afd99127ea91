import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../schema/shapes.js';
import { DEFAULT_OPTIONS, ERROR_CORRECTION_LEVELS, HEX_COLOR_PATTERN, MAX_MARGIN, MAX_SIZE, MIN_MARGIN, MIN_SIZE } from './rules.js';
import { named } from '../schema/names.js';

// The schemas carry the same limits as the service's rules, for the OpenAPI document and so a bad query fails
// before any database work; the codes come out the same either way (INVALID_SIZE, INVALID_COLOR, ...).
// No `default` keywords: Ajv would fill them in, and an absent parameter must stay absent for the settings to apply.
const Size = Type.Integer({ minimum: MIN_SIZE, maximum: MAX_SIZE, description: `Pixels, width and height (default ${DEFAULT_OPTIONS.size})` });
const Color = (what: string, fallback: string) => Type.String({ pattern: HEX_COLOR_PATTERN, description: `${what}: 6 hex digits without '#' (default ${fallback})` });
const Margin = Type.Integer({
  minimum: MIN_MARGIN,
  maximum: MAX_MARGIN,
  description: `Quiet zone in modules, at least (default ${DEFAULT_OPTIONS.margin}); pixels left over so that every module is whole widen it`,
});
const Level = (description: string) => StringEnum(ERROR_CORRECTION_LEVELS, { description });

/** The drawing options of one image: REST's query and the get_qr_code tool's arguments. */
export const ImageQuery = Type.Object({
  size: Type.Optional(Size),
  color: Type.Optional(Color('Modules', DEFAULT_OPTIONS.color)),
  bgColor: Type.Optional(Color('Background', DEFAULT_OPTIONS.bgColor)),
  margin: Type.Optional(Margin),
  ecc: Type.Optional(Level(`Error correction level (default ${DEFAULT_OPTIONS.errorCorrection})`)),
});

export const QrSettings = named('QrSettings', "The account's QR defaults", Type.Object({
  color: Type.String(),
  bgColor: Type.String(),
  size: Type.Integer(),
  errorCorrection: Level('Error correction level'),
  margin: Type.Integer(),
  updatedAt: Nullable(DateTime('Null until the settings are first saved')),
}));

/** A change of the saved settings: REST's body and the update_qr_settings tool's arguments. */
export const SettingsBody = Type.Object(
  {
    color: Type.Optional(Color('Modules', DEFAULT_OPTIONS.color)),
    bgColor: Type.Optional(Color('Background', DEFAULT_OPTIONS.bgColor)),
    size: Type.Optional(Size),
    errorCorrection: Type.Optional(Level('Error correction level')),
    margin: Type.Optional(Margin),
  },
  { minProperties: 1 },
);

