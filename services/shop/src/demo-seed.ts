import { postDate } from '@tv-shop/contracts';
import { hashPassword, userIdFor } from '@tv-shop/identity';
import { SYSTEM_ACTOR, uuidFromName, type CommandBus, type EventStore } from '@tv-shop/platform';
import type { ImageStore } from '@tv-shop/images';
import { drawTv } from '@tv-shop/images';

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
    actor = SYSTEM_ACTOR,
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
      // The shop itself lists the demo, so the sellers' listing limits do not apply (ADR 0035).
      SYSTEM_ACTOR,
    );
    if (l.advertise)
      await send('catalog', 'AdvertiseProduct', productId, `advertise:${i}`, { actorId: sellerId }, { id: sellerId, role: 'Seller' });
  }
  return position;
}
