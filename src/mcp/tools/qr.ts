import { args, tool, ToolImage } from '../tool.js';
import { LINK_OPERATIONS } from '../../links/operations.js';
import { QR_OPERATIONS as ops } from '../../qr/operations.js';
import { ImageQuery, SettingsBody } from '../../qr/schemas.js';

export const qrTools = [
  tool({
    name: 'get_qr_code',
    scope: 'links:read',
    description: "A PNG QR code of a short link's URL. Without options your saved QR settings apply.",
    // Your own link, drawn: its twin is getLinkA/B (the key-less image routes answer anyone, for any link).
    operation: LINK_OPERATIONS.get,
    // REST's query: the same options, limits and codes.
    input: { shortPath: args.shortPath, ...ImageQuery.properties },
    run: async ({ shortPath, ...params }, { core, caller }) => {
      const image = await core.qr.image(shortPath, params); // parameters first, as on REST
      await core.links.get(caller, shortPath); // then: your own links only
      return new ToolImage(image.png, { url: image.url, etag: image.etag, qrUrl: `${core.config.baseUrl}/api/qr/${shortPath}` });
    },
  }),
  tool({
    name: 'get_qr_settings',
    scope: 'links:read',
    description: 'Your default QR code colours, size, error correction and margin.',
    operation: ops.settings,
    input: {},
    run: async (_args, { core, caller }) => core.qr.settings(caller),
  }),
  tool({
    name: 'update_qr_settings',
    scope: 'links:write',
    description: 'Change your default QR code settings; only the fields given change.',
    operation: ops.updateSettings,
    input: SettingsBody, // REST's body: at least one field, each with REST's limits and codes
    run: async (input, { core, caller }) => core.qr.updateSettings(caller, input),
  }),
];
