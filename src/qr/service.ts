import { createHash } from 'node:crypto';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { LinkPresenter } from '../links/presenters.js';
import type { LinkKey } from '../links/link-key.js';
import type { LinksRepository } from '../links/repository.js';
import { parseShortPath } from '../links/rules.js';
import { LRUCache } from 'lru-cache';
import { renderQrPng } from './render.js';
import type { QrSettingsRepository, QrSettingsRow } from './repository.js';
import { checkImageParams, checkSettingsInput, DEFAULT_OPTIONS, type ErrorCorrection, type ImageParams, type QrOptions, type SettingsInput } from './rules.js';

/** An account's QR settings as every surface shows them; `updatedAt` is null until the first save. */
export interface QrSettings extends QrOptions {
  updatedAt: string | null;
}

export interface QrImage {
  png: Buffer;
  /** A strong ETag (quoted): the same text drawn the same way always gets the same one, on every instance. */
  etag: string;
  /** The short URL the code encodes. */
  url: string;
  /** How it was drawn: the owner's settings with the request's parameters on top. */
  options: QrOptions;
}

/** Bumped whenever the drawing changes, so caches holding the old pixels under an old ETag are not trusted. */
const RENDER_VERSION = 1;

const OPTION_FIELDS = ['size', 'color', 'bgColor', 'margin', 'errorCorrection'] as const;

const toSettings = (row: QrSettingsRow | undefined): QrSettings =>
  row
    ? {
        color: row.color,
        bgColor: row.bg_color,
        size: Number(row.size),
        errorCorrection: row.error_correction as ErrorCorrection,
        margin: Number(row.margin),
        updatedAt: row.updated_at,
      }
    : { ...DEFAULT_OPTIONS, updatedAt: null };

/**
 * QR codes of short links and the per-account settings they are drawn with. Images need no caller: anyone may
 * fetch the code of any link (spec section 5, item 5), drawn with the link owner's settings unless the request says otherwise.
 * The HTTP routes and the MCP tools (get_qr_code, get_qr_settings, update_qr_settings) both call these methods.
 */
export class QrService {
  /**
   * The last rendered images by their ETag hash, so a popular code is drawn once and not on every scan; a QR PNG is
   * 1 bit per pixel, a few kilobytes at most.
   */
  private readonly rendered = new LRUCache<string, Buffer>({ max: 500 });

  constructor(
    private readonly repo: QrSettingsRepository,
    private readonly links: LinksRepository,
    private readonly present: LinkPresenter,
    private readonly clock: Clock,
  ) {}

  async settings(caller: Caller): Promise<QrSettings> {
    return toSettings(await this.repo.find(caller.accountId));
  }

  /** Changes only the fields given; the answer is the whole settings object after the change. */
  async updateSettings(caller: Caller, input: SettingsInput): Promise<QrSettings> {
    const change = checkSettingsInput(input);
    const patch = {
      ...(change.color !== undefined && { color: change.color }),
      ...(change.bgColor !== undefined && { bg_color: change.bgColor }),
      ...(change.size !== undefined && { size: change.size }),
      ...(change.errorCorrection !== undefined && { error_correction: change.errorCorrection }),
      ...(change.margin !== undefined && { margin: change.margin }),
    };
    const initial = {
      color: DEFAULT_OPTIONS.color,
      bg_color: DEFAULT_OPTIONS.bgColor,
      size: DEFAULT_OPTIONS.size,
      error_correction: DEFAULT_OPTIONS.errorCorrection,
      margin: DEFAULT_OPTIONS.margin,
      ...patch,
    };
    return toSettings(await this.repo.save(caller.accountId, initial, patch, this.clock.now().toISOString()));
  }

  /**
   * The QR code of a link, named by its short path (`abc123`, `prefix/slug`) or its key. Each parameter given
   * overrides the owner's saved setting of that field; those not given come from the settings (or the defaults).
   * Parameters are checked before the link is looked up, so a bad request is a 400 whether or not the link exists.
   */
  async image(target: string | LinkKey, params: ImageParams = {}): Promise<QrImage> {
    const given = checkImageParams(params);
    const row = await this.links.find(typeof target === 'string' ? parseShortPath(target) : target);
    if (!row) throw errors.linkNotFound();
    const everyFieldGiven = OPTION_FIELDS.every((field) => given[field] !== undefined);
    const base = everyFieldGiven ? DEFAULT_OPTIONS : toSettings(await this.repo.find(row.account_id));
    const options: QrOptions = {
      size: given.size ?? base.size,
      color: given.color ?? base.color,
      bgColor: given.bgColor ?? base.bgColor,
      margin: given.margin ?? base.margin,
      errorCorrection: given.errorCorrection ?? base.errorCorrection,
    };
    const url = this.present.shortUrl(row);
    const key = createHash('sha256')
      .update(JSON.stringify([RENDER_VERSION, url, options.size, options.color, options.bgColor, options.margin, options.errorCorrection]))
      .digest('base64url');
    let png = this.rendered.get(key);
    if (!png) {
      png = renderQrPng(url, options);
      this.rendered.set(key, png);
    }
    return { png, etag: `"${key}"`, url, options };
  }

  /** The code as a `data:` URL, for pages that inline it (the link preview); drawn with the owner's settings. */
  async dataUrlFor(target: string | LinkKey, size?: number): Promise<string> {
    const { png } = await this.image(target, size === undefined ? {} : { size });
    return `data:image/png;base64,${png.toString('base64')}`;
  }
}
