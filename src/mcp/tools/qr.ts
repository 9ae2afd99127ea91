import { args, tool, ToolImage } from '../tool.js';
import { POLICIES } from '../../access/policies.js';
import { ImageQuery, SettingsBody } from '../../qr/schemas.js';

export const qrTools = [
  tool({
    name: 'get_qr_code',
    description: "A PNG QR code of a short link's URL. Without options your saved QR settings apply.",
    policy: POLICIES.apiAccess,
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
    description: 'Your default QR code colours, size, error correction and margin.',
    policy: POLICIES.apiAccess,
    input: {},
    run: async (_args, { core, caller }) => core.qr.settings(caller),
  }),
  tool({
    name: 'update_qr_settings',
    description: 'Change your default QR code settings; only the fields given change.',
    policy: POLICIES.apiAccess,
    input: SettingsBody, // REST's body: at least one field, each with REST's limits and codes
    run: async (input, { core, caller }) => core.qr.updateSettings(caller, input),
  }),
];
