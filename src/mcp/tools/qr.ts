import { Type } from '@sinclair/typebox';
import { args, tool, ToolImage } from '../tool.js';
import { LINK_OPERATIONS } from '../../links/operations.js';
import { QR_OPERATIONS as ops } from '../../qr/operations.js';
import { ImageQuery, QrSettings, SettingsBody } from '../../qr/schemas.js';

/** What get_qr_code says of its image: REST answers the PNG alone, so this one is the tool's own. */
const QrImageDetails = Type.Object({
  url: Type.String({ format: 'uri', description: 'The short URL the code encodes' }),
  etag: Type.String({ description: "The image's ETag, as the public QR route sends it" }),
  qrUrl: Type.String({ format: 'uri', description: 'The public QR route of the same link (no key needed)' }),
});

export const qrTools = [
  tool({
    name: 'get_qr_code',
    title: 'QR code of a link',
    scope: 'links:read',
    description: "A PNG QR code of a short link's URL. Without options your saved QR settings apply.",
    // Your own link, drawn: its twin is getLinkA/B (the key-less image routes answer anyone, for any link).
    operation: LINK_OPERATIONS.get,
    // REST's query: the same options, limits and codes.
    input: { shortPath: args.shortPath, ...ImageQuery.properties },
    output: QrImageDetails,
    run: async ({ shortPath, ...params }, { core, caller }) => {
      const image = await core.qr.image(shortPath, params); // parameters first, as on REST
      await core.links.get(caller, shortPath); // then: your own links only
      return new ToolImage(image.png, { url: image.url, etag: image.etag, qrUrl: `${core.config.baseUrl}/api/qr/${shortPath}` });
    },
  }),
  tool({
    name: 'get_qr_settings',
    title: 'QR code settings',
    scope: 'links:read',
    description: 'Your default QR code colours, size, error correction and margin.',
    operation: ops.settings,
    input: {},
    output: QrSettings,
    run: async (_args, { core, caller }) => core.qr.settings(caller),
  }),
  tool({
    name: 'update_qr_settings',
    title: 'Update QR code settings',
    scope: 'links:write',
    description: 'Change your default QR code settings; only the fields given change.',
    operation: ops.updateSettings,
    input: SettingsBody, // REST's body: at least one field, each with REST's limits and codes
    output: QrSettings,
    run: async (input, { core, caller }) => core.qr.updateSettings(caller, input),
  }),
];
