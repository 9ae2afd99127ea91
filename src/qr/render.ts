import { createRequire } from 'node:module';
import { errors } from '../errors.js';
import { encodeTwoColourPng, rowBytes } from './png.js';
import type { QrOptions } from './rules.js';

/**
 * Draws `text` as a QR code PNG of exactly size x size pixels.
 *
 * qrcode's own `width` option scales modules by a fractional factor and floors the result, so some sizes come out
 * one pixel short (300 is fine, 118 gives 117). Here every module is a whole number of pixels instead (crisp
 * edges, every module the same width, which scanners like), and the pixels a whole grid cannot use widen the
 * quiet zone: it is `margin` modules at least, never less.
 */
/** Loaded on the first QR code drawn: a CLI command or a server that never draws one need not load it. */
let qrcode: typeof import('qrcode') | undefined;

export function renderQrPng(text: string, options: QrOptions): Buffer {
  qrcode ??= createRequire(import.meta.url)('qrcode') as typeof import('qrcode');
  const { modules } = qrcode.create(text, { errorCorrectionLevel: options.errorCorrection });
  const count = modules.size;
  const size = options.size;
  const unit = Math.floor(size / (count + 2 * options.margin));
  // Short URLs need versions far below this; only an extraordinarily long BASE_URL could get here.
  if (unit < 1) {
    throw errors.invalidSize(`This link's QR code needs at least ${count + 2 * options.margin} pixels with margin ${options.margin}`);
  }
  const offset = Math.floor((size - count * unit) / 2);
  const stride = rowBytes(size);
  const bits = Buffer.alloc(stride * size); // all zero: background
  for (let row = 0; row < count; row++) {
    const line = Buffer.alloc(stride);
    for (let col = 0; col < count; col++) {
      if (!modules.get(row, col)) continue;
      for (let x = offset + col * unit; x < offset + (col + 1) * unit; x++) line[x >> 3]! |= 0x80 >> (x & 7);
    }
    for (let y = offset + row * unit; y < offset + (row + 1) * unit; y++) line.copy(bits, y * stride);
  }
  return encodeTwoColourPng(size, size, bits, [options.bgColor, options.color]);
}
