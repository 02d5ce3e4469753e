/**
 * How long the variants of one typical photo take to make, as WebP and as AVIF, on this
 * machine: a 3000 x 2000 JPEG goes through the upload pipeline (decode, cap at 1600 px,
 * re-encode) and then through `renderImageVariants` (480, 960 and the 1200 x 630 crop).
 * Run: node --import tsx bench/image-variants.bench.ts [rounds]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { processUploadedImage } from '../src/server/images/image-processing.js';
import { renderImageVariants } from '../src/server/images/image-variants.js';

const rounds = Number(process.argv[2] ?? 5);

/** A photo-like picture: smooth gradients plus grain, so encoders have real work to do. */
async function typicalPhoto(): Promise<Buffer> {
  const width = 3000;
  const height = 2000;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2b5d9c"/><stop offset="0.6" stop-color="#f2c38b"/><stop offset="1" stop-color="#3b5b2a"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <circle cx="2100" cy="700" r="260" fill="#ffe9a8"/>
    <path d="M0 1500 Q 800 1100 1500 1450 T 3000 1350 V 2000 H 0 Z" fill="#24401c"/>
  </svg>`;
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } },
  })
    .raw()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
  const photo = await typicalPhoto();
  console.log(`input: 3000 x 2000 JPEG, ${(photo.length / 1024).toFixed(0)} KB; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  const stored = await processUploadedImage(photo); // warm up libvips

  const upload: number[] = [];
  const results: Record<'webp' | 'avif', { ms: number[]; bytes: number }> = {
    webp: { ms: [], bytes: 0 },
    avif: { ms: [], bytes: 0 },
  };
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    await processUploadedImage(photo);
    upload.push(performance.now() - start);
    for (const format of ['webp', 'avif'] as const) {
      start = performance.now();
      const variants = await renderImageVariants(stored.data, format);
      results[format].ms.push(performance.now() - start);
      results[format].bytes = variants.widths.reduce((sum, v) => sum + v.data.length, variants.og.length);
    }
  }
  console.log(`upload pipeline (3000 px JPEG -> 1600 px WebP): median ${median(upload).toFixed(0)} ms over ${rounds} rounds`);
  for (const format of ['webp', 'avif'] as const) {
    const { ms, bytes } = results[format];
    console.log(
      `variants as ${format.toUpperCase()} (480, 960, 1200x630): median ${median(ms).toFixed(0)} ms, ` +
        `min ${Math.min(...ms).toFixed(0)} ms, total ${(bytes / 1024).toFixed(0)} KB`,
    );
  }
}

await main();
