import { deflateSync } from 'node:zlib';
import { uuidFromName, type CommandBus, type EventStore } from '@tv-shop/platform';
import { hashPassword } from './auth/passwords';
import type { ImageStore } from './images/image-store';
import { postDate } from './routes/catalog';
import { userIdFor } from './routes/auth';

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

/** A small PNG of a TV set with a coloured picture, drawn here so the demo needs no files. */
export function drawTv(hue: number, w = 320, h = 220): Buffer {
  const rows: Buffer[] = [];
  const rgb = (hh: number, l: number): [number, number, number] => {
    const f = (n: number) => {
      const k = (n + hh / 30) % 12;
      return Math.round(255 * (l - 0.5 * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) {
      let px: [number, number, number] = [245, 246, 248];
      const inBody = x >= 20 && x < w - 20 && y >= 10 && y < 180;
      const inScreen = x >= 30 && x < w - 30 && y >= 20 && y < 170;
      const inStand =
        (x >= w / 2 - 10 && x < w / 2 + 10 && y >= 180 && y < 200) || (x >= w / 2 - 50 && x < w / 2 + 50 && y >= 200 && y < 208);
      if (inBody || inStand) px = [32, 34, 40];
      if (inScreen) px = rgb((hue + (x / w) * 60) % 360, 0.35 + 0.35 * (1 - (y - 20) / 150));
      row.set(px, 1 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sellers = [
  { name: 'Karim Electronics', email: 'karim@demo.tvshop.local', verified: true },
  { name: 'Nusrat Akter', email: 'nusrat@demo.tvshop.local', verified: false },
];
const listings = [
  {
    seller: 0,
    name: 'Samsung 43" Crystal UHD',
    category: 'samsung',
    price: 32000,
    original: 52000,
    years: '2 years',
    condition: 'Excellent',
    location: 'Dhanmondi, Dhaka',
    hue: 210,
    advertise: true,
  },
  {
    seller: 0,
    name: 'Sony Bravia 55" X80J',
    category: 'sony',
    price: 61000,
    original: 98000,
    years: '3 years',
    condition: 'Good',
    location: 'Gulshan, Dhaka',
    hue: 280,
    advertise: true,
  },
  {
    seller: 1,
    name: 'LG 32" HD Smart',
    category: 'lg',
    price: 14500,
    original: 26000,
    years: '4 years',
    condition: 'Good',
    location: 'Agrabad, Chattogram',
    hue: 340,
    advertise: false,
  },
  {
    seller: 1,
    name: 'Walton 40" Full HD',
    category: 'walton',
    price: 16000,
    original: 29000,
    years: '1 year',
    condition: 'Excellent',
    location: 'Zindabazar, Sylhet',
    hue: 170,
    advertise: true,
  },
  {
    seller: 0,
    name: 'Xiaomi Mi TV 4A 32"',
    category: 'xiaomi',
    price: 11000,
    original: 21000,
    years: '5 years',
    condition: 'Fair',
    location: 'Mirpur, Dhaka',
    hue: 30,
    advertise: false,
  },
  {
    seller: 1,
    name: 'Sony Bravia 32" W600',
    category: 'sony',
    price: 13000,
    original: 34000,
    years: '6 years',
    condition: 'Fair',
    location: 'Rajshahi',
    hue: 100,
    advertise: false,
  },
] as const;

/** SEED_DEMO=1: two sellers and six listings with pictures, written as ordinary events, once. */
export async function seedDemo(store: EventStore, bus: CommandBus, images: ImageStore): Promise<number> {
  let position = await store.headPosition();
  const send = async (
    service: 'identity' | 'catalog',
    type: string,
    aggregateId: string,
    key: string,
    data: unknown,
    actor = { id: 'system', role: 'System' },
  ) => {
    const reply = await bus
      .send({ service, type, aggregateId, data, actor, correlationId: 'demo-seed', commandId: uuidFromName(`demo:${key}`) })
      .catch((err: { kind?: string }) => {
        if (err.kind === 'conflict' || err.kind === 'illegal_state') return null; // already seeded
        throw err;
      });
    if (reply) position = Math.max(position, reply.position);
  };
  const password = await hashPassword('demo-password');
  for (const s of sellers) {
    const userId = userIdFor(s.email);
    await send('identity', 'RegisterUser', userId, `user:${s.email}`, {
      userId,
      name: s.name,
      email: s.email,
      role: 'Seller',
      photoURL: '',
      passwordHash: password,
      via: 'bootstrap',
    });
    if (s.verified) await send('identity', 'VerifySeller', userId, `verify:${s.email}`, {});
  }
  for (const [i, l] of listings.entries()) {
    const s = sellers[l.seller]!;
    const sellerId = userIdFor(s.email);
    const productId = uuidFromName(`demo-product:${i}`);
    const id = await images.put(drawTv(l.hue), 'image/png');
    await send(
      'catalog',
      'ListProduct',
      productId,
      `product:${i}`,
      {
        productId,
        name: l.name,
        imageUrl: `/api/images/${id}`,
        details: `${l.name}, used ${l.years}. Remote and stand included; no dead pixels.`,
        location: l.location,
        resalePricePoisha: l.price * 100,
        originalPricePoisha: l.original * 100,
        useDuration: l.years,
        condition: l.condition,
        phone: '01700-000000',
        categoryId: l.category,
        categoryName: '',
        sellerId,
        sellerName: s.name,
        sellerEmail: s.email,
        postedOn: postDate(new Date()),
      },
      { id: sellerId, role: 'Seller' },
    );
    if (l.advertise)
      await send('catalog', 'AdvertiseProduct', productId, `advertise:${i}`, { actorId: sellerId }, { id: sellerId, role: 'Seller' });
  }
  return position;
}
