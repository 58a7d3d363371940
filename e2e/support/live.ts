import type { Page } from 'playwright-core';

/** A mark that a reload would wipe: proves the page changed by push, not by reloading. */
export async function markNoReload(page: Page): Promise<void> {
  await page.evaluate('window.__noReload = true');
}

export async function stillSamePage(page: Page): Promise<boolean> {
  return (await page.evaluate('window.__noReload === true')) === true;
}

/** The app marks <html data-live> as its socket connects and drops. */
export async function waitLive(page: Page, state: 'connected' | 'disconnected' = 'connected'): Promise<void> {
  await page.locator(`html[data-live="${state}"]`).waitFor({ state: 'attached' });
}

/** The page's `catch_up` calls as seen on the wire: what it asked from, and what came back. */
export interface CatchUpTraffic {
  asked: number[];
  answers: { position: number; changes: { entity: string; op: string; id: string; position: number }[]; resync?: boolean }[];
}

/**
 * Watches Socket.IO packets (WebSocket frames and long-polling bodies, which hold several packets
 * split by \x1e), so a test can tell the app's own catch-up from Socket.IO's session recovery.
 */
export function recordCatchUps(page: Page): CatchUpTraffic {
  const traffic: CatchUpTraffic = { asked: [], answers: [] };
  const askIds = new Set<string>();
  const sent = (payload: string) => {
    for (const packet of payload.split('\x1e')) {
      const match = /^42(\d*)\["catch_up",(\d+)/.exec(packet);
      if (!match) continue;
      askIds.add(match[1] ?? '');
      traffic.asked.push(Number(match[2]));
    }
  };
  const received = (payload: string) => {
    for (const packet of payload.split('\x1e')) {
      const match = /^43(\d+)(\[.*)$/s.exec(packet);
      if (match && askIds.has(match[1] ?? '')) traffic.answers.push((JSON.parse(match[2] ?? '[]') as CatchUpTraffic['answers'])[0]!);
    }
  };
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => sent(String(payload)));
    socket.on('framereceived', ({ payload }) => received(String(payload)));
  });
  page.on('request', (request) => {
    if (request.url().includes('/socket.io/') && request.method() === 'POST') sent(request.postData() ?? '');
  });
  page.on('response', (response) => {
    if (!response.url().includes('/socket.io/') || response.request().method() !== 'GET') return;
    response.text().then(received, () => undefined);
  });
  return traffic;
}

/**
 * Makes the next `catch_up` answer say `resync: true` with no changes, as the server does once the
 * gap is older than the changes it keeps (which takes thousands of writes to reach for real).
 * Install before the page opens; `arm()` when the next answer should say it.
 */
export async function answerResyncOnce(page: Page): Promise<{ arm(): void }> {
  let armed = false;
  const rewrite = (payload: string) =>
    payload
      .split('\x1e')
      .map((packet) => {
        const ack = /^43(\d+)(\[\{.*)$/s.exec(packet);
        if (!armed || !ack) return packet;
        armed = false;
        const [answer] = JSON.parse(ack[2]!) as [{ position: number }];
        return `43${ack[1]}${JSON.stringify([{ position: answer.position, changes: [], resync: true }])}`;
      })
      .join('\x1e');
  await rewriteIncoming(page, () => armed, rewrite);
  return { arm: () => (armed = true) };
}

/**
 * Passes what the server sends the page over Socket.IO (WebSocket frames, long-polling answers)
 * through `rewrite` while `active()`. An empty polling answer is not a valid one: a noop packet
 * ("6") stands for what was dropped; an empty frame is not sent. Install before the page opens.
 */
async function rewriteIncoming(page: Page, active: () => boolean, rewrite: (payload: string) => string): Promise<void> {
  await page.route('**/socket.io/**', async (route) => {
    if (!active() || route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, body: rewrite(await response.text()) || '6' });
  });
  await page.routeWebSocket(/\/socket\.io\//, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      const kept = typeof message === 'string' && active() ? rewrite(message) : message;
      if (kept) socket.send(kept);
    });
  });
}

/**
 * Holds back the server's pushes (its Socket.IO events; not the answers to the page's own calls)
 * from the page while `hold(true)`: a page whose connection has not heard a change yet, as when a
 * push is slower than the buyer. Install before the page opens.
 */
export async function holdPushes(page: Page): Promise<{ hold(on: boolean): void }> {
  let held = false;
  await rewriteIncoming(
    page,
    () => held,
    (payload) =>
      payload
        .split('\x1e')
        .filter((packet) => !packet.startsWith('42['))
        .join('\x1e'),
  );
  return { hold: (on) => (held = on) };
}
