import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, StringEnum } from '../schema/shapes.js';
import { PLATFORMS } from './app-targets.js';
import { WEB2APP_OPERATIONS as ops } from './operations.js';
import type { Web2appService } from './service.js';

const SURFACES = [
  { surface: 'A', base: '/api/v1/web2app/sessions' },
  { surface: 'B', base: '/api/web2app/sessions' },
] as const;

const Params = Type.Object({ id: Type.String({ description: 'The session id: the snip_sid the app was opened with' }) });
const Platform = StringEnum(PLATFORMS);

export const ClaimedSession = Type.Object({
  shortCode: Type.String(),
  platform: Platform,
  deepLink: Type.String({ description: 'The app target the click was for' }),
  params: Type.Record(Type.String(), Type.String(), { description: "The link's query parameters (destination's, then the visit's own)" }),
});

export const SessionObject = Type.Object({
  id: Type.String(),
  shortCode: Type.String(),
  platform: Platform,
  claimed: Type.Boolean(),
  claimedAt: Type.Union([DateTime(), Type.Null()]),
  createdAt: DateTime(),
  expiresAt: DateTime(),
});

/** Web2app sessions over A and B: the app's claim (no key) and the owner's read (Pro and above). */
export const web2appRoutes =
  (web2app: Web2appService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { surface, base } of SURFACES) {
      const tags = [`web2app (${surface})`];
      app.post(
        `${base}/:id/claim`,
        {
          config: bind(ops.claim, surface),
          schema: { tags, summary: 'The installed app claims its session, once (deferred deep linking); no key: the id is the secret', description: 'For the app, no key: once installed from the store and opened, it claims the visit that sent its user there and learns the deep link and parameters to open. The session id is the secret; a session is claimed once and lasts 24 hours.', params: Params, response: { 200: ClaimedSession, ...errorResponses(404, 409) } },
        },
        async (request) => web2app.claim(request.params.id),
      );
      app.get(
        `${base}/:id`,
        { config: bind(ops.get, surface), schema: { tags, summary: "A session of one of the caller's links", description: "Answers a deferred deep-linking session of one of the caller's links: its platform, whether the app claimed it and when. Pro and above.", params: Params, response: { 200: SessionObject, ...errorResponses(404) } } },
        async (request) => web2app.get(callerOf(request), request.params.id),
      );
    }
  };
