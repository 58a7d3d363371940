/* global process, console */
// A plain TCP forwarder for the partition test: `node forward.mjs <listen-host> <target-host>
// <port>[:<target-port>] ...` listens on <listen-host>:<port> for each port and pipes every
// connection to <target-host>:<target-port>. It prints `ready` once it listens, and exits when its
// stdin closes (its parent went away) or on SIGTERM. It adds no timeouts and no keepalives of its
// own: a connection whose far side goes silent stays open, as a TCP connection across a cut link does.
import net from 'node:net';

const [listenHost, targetHost, ...specs] = process.argv.slice(2);
if (!listenHost || !targetHost || specs.length === 0) {
  console.error('usage: node forward.mjs <listen-host> <target-host> <port>[:<target-port>] ...');
  process.exit(2);
}

const servers = specs.map((spec) => {
  const [listenPort, targetPort = listenPort] = spec.split(':').map(Number);
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect({ host: targetHost, port: targetPort });
    upstream.setNoDelay(true);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, listenHost, () => resolve(server));
  });
});

try {
  await Promise.all(servers);
  process.stdout.write('ready\n');
} catch (err) {
  console.error(`forward: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
