import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A page that calls TV Shop as the spec's client does: with the token it has stored, which is
 * `null` for a visitor, in `authorization: bearer null`. The API's address comes in `?api=`.
 */
const PAGE = `<!doctype html><html><head><title>Original client</title></head><body>
<h1>All Products</h1><ul id="all"></ul><h2>Samsung</h2><ul id="category"></ul><p id="error"></p>
<script>
  const api = new URLSearchParams(location.search).get('api');
  const token = localStorage.getItem('TV_Shop_Token'); // null: nobody is signed in
  const get = (path) => fetch(api + path, { headers: { authorization: 'bearer ' + token } }).then((r) => r.json());
  const show = (id, list) => { document.getElementById(id).innerHTML = list.map((p) => '<li>' + p.porduct_name + '</li>').join(''); };
  Promise.all([get('/all_products'), get('/products/samsung')])
    .then(([all, category]) => { show('all', all); show('category', category); document.body.dataset.done = 'ok'; })
    .catch((e) => { document.getElementById('error').textContent = String(e); document.body.dataset.done = 'refused'; });
</script></body></html>`;

/** Serves that page on its own loopback port: a real origin of its own, as a CDN would be. */
export async function serveClientPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
