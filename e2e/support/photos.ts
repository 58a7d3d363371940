import { stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/** A green frame and a caption, so each photo can be told apart in screenshots. */
const caption = (width: number, height: number, text: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect x="${width * 0.08}" y="${height * 0.08}" width="${width * 0.84}" height="${height * 0.84}" rx="${height / 40}"
        fill="none" stroke="#0f766e" stroke-width="${height / 60}"/>
      <text x="50%" y="53%" font-size="${Math.min(width, height) / 10}" font-family="sans-serif" font-weight="bold"
        text-anchor="middle" fill="#fff" stroke="#0f172a" stroke-width="${height / 500}">${text}</text>
    </svg>`,
  );

const file = (name: string) => join(tmpdir(), `tvshop-${process.pid}-${name}`);

/**
 * A phone's full-size photo: 4000x3000 of random noise (which JPEG cannot squeeze) at quality 92,
 * about 7 MB, over the server's 5 MB limit. Answers its path and size in bytes.
 */
export async function bigPhoneJpeg(name: string, text: string): Promise<{ path: string; bytes: number }> {
  const path = file(name);
  const noise = { type: 'gaussian' as const, mean: 128, sigma: 30 };
  await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#000', noise } })
    .composite([{ input: caption(4000, 3000, text) }])
    .jpeg({ quality: 92 })
    .toFile(path);
  return { path, bytes: (await stat(path)).size };
}

/** A small PNG of one colour with a caption: uploaded as it is (no shrinking needed). */
export async function captionedPng(name: string, width: number, height: number, background: string, text: string): Promise<string> {
  const path = file(name);
  await writeFile(
    path,
    await sharp({ create: { width, height, channels: 3, background } })
      .composite([{ input: caption(width, height, text) }])
      .png()
      .toBuffer(),
  );
  return path;
}
