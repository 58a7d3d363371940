import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless and quiet: the machine has no internet. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** A page in a context of its own, at desktop width unless `options` say otherwise (a phone with a touch screen). */
export async function openPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/** Saves the page at desktop and phone width, then puts the desktop width back. */
export async function snap(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Let toasts and transitions settle so the picture shows the page, not a half-drawn frame.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** One picture at the current size, after animations (a drawer sliding in) have finished. */
export async function snapAsIs(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** Chromium for one test file: launched before its tests, closed after; returns a page opener. */
export function useBrowser(baseURL: string): (options?: BrowserContextOptions) => Promise<Page> {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return (options?: BrowserContextOptions) => openPage(browser!, baseURL, options);
}
