import { describe, expect, it } from 'vitest';
import { bookedOnOtherTerms, changesTerms, photosAfter } from './events';

describe('changesTerms: what a booking was placed on (ADR 0073)', () => {
  const photos = ['/api/images/a', '/api/images/b', '/api/images/c'];
  it('is false for the same photos in another order, another of them as the cover, their thumbnails with them', () => {
    const reordered = ['/api/images/c', '/api/images/a', '/api/images/b'];
    expect(changesTerms(photos, { imageUrl: reordered[0]!, imageUrls: reordered })).toBe(false);
    expect(changesTerms(photos, { imageUrl: reordered[0]!, imageUrls: reordered, thumbnailUrls: ['/t/c', '/t/a', '/t/b'] })).toBe(false);
    expect(changesTerms(photos, { thumbnailUrls: [] })).toBe(false);
  });
  it('is true for a photo added, removed or in place of another, and for any other field', () => {
    expect(changesTerms(photos, { imageUrls: [...photos, '/api/images/d'] })).toBe(true);
    expect(changesTerms(photos, { imageUrls: photos.slice(0, 2) })).toBe(true);
    expect(changesTerms(photos, { imageUrls: ['/api/images/a', '/api/images/b', '/api/images/d'] })).toBe(true);
    expect(changesTerms(photos, { imageUrls: ['/api/images/a', '/api/images/a', '/api/images/b'] })).toBe(true);
    expect(changesTerms(photos, { resalePricePoisha: 1 })).toBe(true);
    expect(changesTerms(photos, { details: 'With its stand' })).toBe(true);
  });
  it('reads an edit from before several photos (the cover alone) as the one photo it names', () => {
    expect(changesTerms(['/api/images/a'], { imageUrl: '/api/images/a' })).toBe(false);
    expect(changesTerms(['/api/images/a'], { imageUrl: '/api/images/z' })).toBe(true);
    expect(photosAfter(['/api/images/a', '/api/images/b'], { imageUrl: '/api/images/z' })).toEqual(['/api/images/z']);
    expect(photosAfter(['/api/images/a'], { details: 'With its stand' })).toEqual(['/api/images/a']);
  });
});

describe('bookedOnOtherTerms', () => {
  const listing = { edits: 3, terms: 1 };
  it('compares the terms a booking counted, else (placed before they were counted) its edits, else nothing', () => {
    expect(bookedOnOtherTerms({ listingEdits: 1, listingTerms: 1 }, listing)).toBe(false);
    expect(bookedOnOtherTerms({ listingEdits: 3, listingTerms: 0 }, listing)).toBe(true);
    expect(bookedOnOtherTerms({ listingEdits: 2 }, listing)).toBe(true);
    expect(bookedOnOtherTerms({ listingEdits: 3 }, listing)).toBe(false);
    expect(bookedOnOtherTerms({}, listing)).toBe(false);
  });
});
