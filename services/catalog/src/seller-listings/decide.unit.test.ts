import { describe, expect, it } from 'vitest';
import type { SellerListingsEvent } from '@tv-shop/contracts';
import { AppError, fold } from '@tv-shop/platform';
import { deciderSpec } from '@tv-shop/platform/testing';
import { ACTIVE_LIMIT, ACTIVE_RETRY_AFTER_S, HOURLY_LIMIT, sellerListingsDecider, type SellerListingsCommand } from './decide';

const given = deciderSpec(sellerListingsDecider);
const limits = { active: 3, perHour: 2 };
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
/** `minutes` after 10:00, as the ISO time a command or event carries. */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const taken = (productId: string, minutes: number, reason: 'listed' | 'available-again' | 'existing' = 'listed'): SellerListingsEvent => ({
  type: 'ListingSlotTaken',
  data: { sellerId: 's1', productId, at: at(minutes), reason },
});
const freed = (productId: string, reason: 'sold' | 'removed' | 'not-for-sale' = 'sold'): SellerListingsEvent => ({
  type: 'ListingSlotFreed',
  data: { sellerId: 's1', productId, reason },
});
const open = (productId: string, minutes: number, over: Partial<typeof limits> = {}): SellerListingsCommand => ({
  type: 'OpenListing',
  data: { sellerId: 's1', productId, at: at(minutes), limits: { ...limits, ...over } },
});
const reopen = (productId: string, minutes: number): SellerListingsCommand => ({
  type: 'ReopenListing',
  data: { sellerId: 's1', productId, at: at(minutes), limits },
});
/** The refusal itself, to read its Retry-After and sentence. */
const refusal = (command: SellerListingsCommand, ...events: SellerListingsEvent[]): AppError => {
  try {
    sellerListingsDecider.decide(command, fold(sellerListingsDecider, events));
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('the command was not refused');
};

describe('seller listings decider', () => {
  it('given no listings, when the seller opens one, then ListingSlotTaken for it, counted as listed', () =>
    given()
      .when(open('p1', 0))
      .then([taken('p1', 0)]));

  it('given a slot held for a product, when the same listing is opened again (a retry), then nothing is taken and nothing refused, even at both limits', () =>
    given(taken('p1', 0), taken('p2', 1), taken('p3', 61))
      .when(open('p1', 62, { active: 3, perHour: 1 }))
      .then([]));

  it('given as many TVs for sale as the active limit, when the seller opens another, then 429 naming the active limit, Retry-After an hour', () => {
    const full = [taken('p1', 0), taken('p2', 70), taken('p3', 140)];
    given(...full)
      .when(open('p4', 141))
      .thenThrows({ kind: 'too_many_requests', status: 429, field: ACTIVE_LIMIT, retryAfter: ACTIVE_RETRY_AFTER_S });
    expect(refusal(open('p4', 141), ...full).message).toBe(
      'You already have 3 TVs for sale, the most one seller may have. Mark one sold or withdraw it before adding another.',
    );
  });

  it('given a full active limit, when one of the TVs is sold or removed, then its slot is free for the next listing', () => {
    given(taken('p1', 0), taken('p2', 70), taken('p3', 140), freed('p2'))
      .when(open('p4', 141))
      .then([taken('p4', 141)]);
    given(taken('p1', 0), taken('p2', 70), taken('p3', 140), freed('p3', 'removed'))
      .when(open('p4', 141))
      .then([taken('p4', 141)]);
  });

  it('given the hour’s limit reached, when the seller opens another, then 429 naming the hourly limit, Retry-After when the oldest leaves the hour', () => {
    const twoThisHour = [taken('p1', 0), taken('p2', 48)];
    given(...twoThisHour)
      .when(open('p3', 50))
      .thenThrows({ kind: 'too_many_requests', field: HOURLY_LIMIT, retryAfter: 10 * 60 });
    expect(refusal(open('p3', 50), ...twoThisHour).message).toBe(
      'You have added 2 TVs in the last hour, the most allowed. You can add another in 10 minutes.',
    );
    // Half a minute before the oldest leaves: 30 s, said as one minute.
    const soon = refusal(open('p3', 59.5), ...twoThisHour);
    expect(soon.retryAfter).toBe(30);
    expect(soon.message).toMatch(/in 1 minute\.$/);
  });

  it('given the hour’s limit reached an hour ago, when the seller opens another once the oldest left the hour, then it is taken', () =>
    given(taken('p1', 0), taken('p2', 48))
      .when(open('p3', 60.01))
      .then([taken('p3', 60.01)]));

  it('given TVs sold within the hour, when the seller opens another, then the sold ones still count toward the hour', () =>
    given(taken('p1', 0), freed('p1'), taken('p2', 5), freed('p2'))
      .when(open('p3', 10))
      .thenThrows({ field: HOURLY_LIMIT, retryAfter: 50 * 60 }));

  it('given the active limit is reached too, when the seller opens another, then the active limit is the one named: only a sale or removal helps', () =>
    given(taken('p1', 0), taken('p2', 1), taken('p3', 2)).when(open('p4', 3)).thenThrows({ field: ACTIVE_LIMIT }));

  it('given a limit of 0, when the seller opens past it, then that limit is off', () => {
    given(taken('p1', 0), taken('p2', 1), taken('p3', 2))
      .when(open('p4', 3, { active: 0, perHour: 0 }))
      .then([taken('p4', 3)]);
    given(taken('p1', 0), taken('p2', 1))
      .when(open('p3', 2, { perHour: 0 }))
      .then([taken('p3', 2)]);
  });

  it('given a sold TV, when it is made available again, then it takes a slot back that does not count toward the hour', () => {
    given(taken('p1', 0), freed('p1'))
      .when(reopen('p1', 1))
      .then([taken('p1', 1, 'available-again')]);
    // Back for sale twice this hour, and two new listings still fit the hour's two.
    given(taken('p1', 0, 'available-again'), taken('p2', 1, 'available-again'))
      .when(open('p3', 2))
      .then([taken('p3', 2)]);
  });

  it('given the active limit full, when a sold TV is made available again, then 429 saying to make room first; a TV holding its slot is left as is', () => {
    given(taken('p1', 0), taken('p2', 70), taken('p3', 140), taken('p4', 200), freed('p4'))
      .when(reopen('p4', 201))
      .thenThrows({ field: ACTIVE_LIMIT, retryAfter: ACTIVE_RETRY_AFTER_S });
    expect(refusal(reopen('p4', 201), taken('p1', 0), taken('p2', 70), taken('p3', 140)).message).toMatch(
      /before making another available\.$/,
    );
    given(taken('p1', 0), taken('p2', 70), taken('p3', 140)).when(reopen('p3', 201)).then([]);
  });

  it('given slots held, when some are freed with one being freed twice or not held at all, then each held one is freed once', () =>
    given(taken('p1', 0), taken('p2', 1), freed('p2'))
      .when({ type: 'FreeListings', data: { sellerId: 's1', productIds: ['p1', 'p1', 'p2', 'p9'], reason: 'not-for-sale' } })
      .then([freed('p1', 'not-for-sale')]));

  it('given a limit of one, when refused, then the sentence says one TV', () => {
    expect(refusal(open('p2', 1, { active: 1 }), taken('p1', 0)).message).toMatch(/^You already have 1 TV for sale,/);
    expect(refusal(open('p2', 1, { active: 0, perHour: 1 }), taken('p1', 0)).message).toMatch(/^You have added 1 TV in the last hour/);
  });

  it('given TVs for sale from before the limits, when they are counted, then each takes a slot (once) that counts toward what is for sale, not the hour', () => {
    const hold: SellerListingsCommand = { type: 'HoldExisting', data: { sellerId: 's1', productIds: ['p1', 'p2', 'p2', 'p3'], at: at(0) } };
    given(taken('p3', 0))
      .when(hold)
      .then([taken('p1', 0, 'existing'), taken('p2', 0, 'existing')]);
    const counted = [taken('p1', 0, 'existing'), taken('p2', 0, 'existing'), taken('p3', 0, 'existing')];
    given(...counted)
      .when(open('p4', 1))
      .thenThrows({ field: ACTIVE_LIMIT });
    // Two counted TVs and one new listing, with two an hour allowed: the counted ones are not new.
    given(taken('p1', 0, 'existing'), taken('p2', 0, 'existing'), taken('p4', 1))
      .when(open('p5', 2, { active: 5 }))
      .then([taken('p5', 2)]);
  });
});
