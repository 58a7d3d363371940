import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '@tv-shop/images';

/** A valid solid-colour PNG, so uploads need no image files in the repo. */
export function solidPng(width: number, height: number, color: [number, number, number]): Buffer {
  return encodePng(width, height, () => color);
}

export async function pngFile(name: string, color: [number, number, number], size = 64): Promise<string> {
  const path = join(tmpdir(), `tvshop-${name}-${process.pid}.png`);
  await writeFile(path, solidPng(size, size, color));
  return path;
}
