import { deflateSync } from 'node:zlib';

/**
 * A minimal PNG writer for two-colour images: 1 bit per pixel over a two-entry palette (PNG colour type 3).
 * Written here rather than taken from pngjs, which is only a development dependency; a QR code needs nothing
 * more, and one bit per pixel keeps a 1000 x 1000 image at a few kilobytes.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// zlib.crc32 only arrived in Node 20.15; the engines field allows any Node 20.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(typed.length + 8);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(crc32(typed), typed.length + 4);
  return out;
}

/** Bytes per row of a 1-bit image `width` pixels wide; the first pixel is the high bit of the first byte. */
export const rowBytes = (width: number): number => Math.ceil(width / 8);

/**
 * Encodes `bits` (rowBytes(width) bytes per row, `height` rows; a set bit is palette entry 1) with
 * `palette[0]` for 0 bits and `palette[1]` for 1 bits, each six hex digits.
 */
export function encodeTwoColourPng(width: number, height: number, bits: Buffer, palette: readonly [string, string]): Buffer {
  const stride = rowBytes(width);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 3; // colour type: palette
  // compression, filter and interlace methods stay 0: deflate, adaptive filtering, no interlace
  // Each row is preceded by its filter type; 0 (none) suits long runs of equal bytes, which deflate squeezes.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) bits.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.join(''), 'hex')),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
