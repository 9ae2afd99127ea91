import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AddressLimits } from '../access/address-limits.js';

/**
 * Charges the per-address budget on every route that answers without a key (`access` none, or optional and called
 * without one), before any work: public QR images, trust scores, statistics pages, domain checks. The redirect
 * path charges its misses and previews itself (src/redirects/routes.ts), so a found link pays nothing.
 */
export function registerAddressLimits(app: FastifyInstance, limits: AddressLimits): void {
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access || access.auth === 'required') return;
    const charge = async (request: FastifyRequest) => {
      if (access.auth === 'optional' && request.headers.authorization) return;
      await limits.admit(request.ip);
    };
    route.onRequest = [charge, ...[route.onRequest ?? []].flat()];
  });
}
