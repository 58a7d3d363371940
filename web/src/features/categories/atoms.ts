import type { Category } from '@tv-shop/contracts';
import { atom } from 'jotai';

/** Categories change only by seeding, so one fetch per visit is enough. */
export const categoriesAtom = atom<Category[] | null>(null);
