import { deflateSync } from 'node:zlib';

export type Rgb = [number, number, number];

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (b: Buffer) => {
  let c = -1;
  for (const x of b) c = CRC[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A truecolour PNG from a pixel function, so demo data and tests need no image files. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) row.set(pixel(x, y), 1 + x * 3);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small picture of a TV set with a coloured screen. */
export function drawTv(hue: number, w = 320, h = 220): Buffer {
  const hsl = (hh: number, l: number): Rgb => {
    const f = (n: number) => {
      const k = (n + hh / 30) % 12;
      return Math.round(255 * (l - 0.5 * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  return encodePng(w, h, (x, y) => {
    const inScreen = x >= 30 && x < w - 30 && y >= 20 && y < 170;
    if (inScreen) return hsl((hue + (x / w) * 60) % 360, 0.35 + 0.35 * (1 - (y - 20) / 150));
    const inBody = x >= 20 && x < w - 20 && y >= 10 && y < 180;
    const inStand =
      (x >= w / 2 - 10 && x < w / 2 + 10 && y >= 180 && y < 200) || (x >= w / 2 - 50 && x < w / 2 + 50 && y >= 200 && y < 208);
    return inBody || inStand ? [32, 34, 40] : [245, 246, 248];
  });
}
