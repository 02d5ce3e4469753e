import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real PNG of one colour. */
export const solidPng = (width: number, height: number, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

/** A real JPEG full of noise: its entropy-coded data is large, so cutting the file really loses pixels. */
export function noisyJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 800, height: 600, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
}

/**
 * A valid side x side one-bit grayscale PNG: 400 megapixels in about 50 KB at 20000. Written by
 * hand because encoding it through sharp would itself take seconds.
 */
export function pngBomb(side = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  const rowBytes = 1 + Math.ceil(side / 8); // filter byte + packed pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(rowBytes * side), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
