import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/**
 * The QR settings operations (src/access/operation.ts), bound by src/qr/routes.ts (A's /api/v1/qr-settings, B's
 * /api/user/qr-settings) and the MCP tools. The image routes answer anyone without a key and no tool offers them
 * as they are (get_qr_code draws only the caller's own links), so they bind none.
 */
export const QR_OPERATIONS = {
  settings: operation({ id: 'getQrSettings', policy: POLICIES.apiAccess, errors: [] }),
  /** The service checks each field by the same rules as the image parameters (src/qr/rules.ts), schema or not. */
  updateSettings: operation({
    id: 'updateQrSettings',
    policy: POLICIES.apiAccess,
    errors: ['INVALID_SIZE', 'INVALID_MARGIN', 'INVALID_COLOR', 'INVALID_BG_COLOR', 'INVALID_ERROR_CORRECTION', 'INVALID_BODY'],
  }),
};
