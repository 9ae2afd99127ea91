import { z } from 'zod';
import { args, tool, ToolImage } from '../tool.js';
import { POLICIES } from '../../access/policies.js';

const hex = (what: string) => z.string().describe(`${what}: 6 hex digits without #, e.g. 1A2B3C`);

export const qrTools = [
  tool({
    name: 'get_qr_code',
    description: "A PNG QR code of a short link's URL. Without options your saved QR settings apply.",
    policy: POLICIES.apiAccess,
    input: {
      shortPath: args.shortPath,
      size: z.number().int().min(100).max(1000).optional().describe('Width and height in pixels, 100-1000'),
      color: hex('Colour of the dark modules').optional(),
      bgColor: hex('Background colour').optional(),
      margin: z.number().int().min(0).max(10).optional().describe('Quiet zone in modules, 0-10'),
      ecc: z.enum(['L', 'M', 'Q', 'H']).optional().describe('Error correction level'),
    },
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
    input: {
      color: hex('Dark modules').optional(),
      bgColor: hex('Background').optional(),
      size: z.number().int().min(100).max(1000).optional(),
      errorCorrection: z.enum(['L', 'M', 'Q', 'H']).optional(),
      margin: z.number().int().min(0).max(10).optional(),
    },
    run: async (input, { core, caller }) => core.qr.updateSettings(caller, input),
  }),
];
