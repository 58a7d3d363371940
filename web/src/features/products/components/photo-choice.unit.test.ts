import { describe, expect, it } from 'vitest';
import { sortChoice } from './photo-choice';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];
const png = (name: string) => new File([new Uint8Array(PNG)], name, { type: 'image/png' });
const isImage = (file: File) => file.type.startsWith('image/');

describe('photos chosen for a listing', () => {
  it('given more photos than a listing holds, then the rest are left out and that is shown, not only said', async () => {
    const chosen = Array.from({ length: 10 }, (_, i) => png(`tv-${i + 1}.png`));
    const choice = await sortChoice(chosen, 0, isImage);
    expect(choice.taken.map((f) => f.name)).toEqual(chosen.slice(0, 8).map((f) => f.name));
    expect(choice.refused).toBe('A listing holds 8 photos; 2 photos not added.');
    expect(choice.said).toBe('8 photos added.');
  });

  it('given a file that is not a picture beside too many photos, then both are shown', async () => {
    const notes = new File(['only named like a picture'], 'notes.png', { type: 'image/png' });
    const choice = await sortChoice([notes, png('a.png'), png('b.png')], 7, isImage);
    expect(choice.taken.map((f) => f.name)).toEqual(['a.png']);
    expect(choice.refused).toBe('Not a photo this browser can read, so not added: notes.png. A listing holds 8 photos; 1 photo not added.');
  });

  it('given a listing already full, then nothing is added and nothing is said as added', async () => {
    const choice = await sortChoice([png('c.png')], 8, isImage);
    expect(choice).toEqual({ taken: [], refused: 'A listing holds 8 photos; 1 photo not added.', said: null });
  });
});
