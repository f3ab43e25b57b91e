// The viewers of `npm run bench:matchday`, in a child process of their own (forked by
// matchday.mjs, so that their sockets and CPU are not the parent's): raw-socket live streams
// from many 127.0.0.x addresses, each reading its match's `revision` events; with `fetchMain`,
// each event makes the viewer fetch the page's live part (`?part=main`) as the page's script does.
// Reports to the parent over IPC: how many streams opened or were refused, and, in batches,
// when each viewer saw each revision (absolute milliseconds, comparable across processes).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let config;
const streams = [];
let refused = [];
let dropped = 0;
/** [matchIndex, revision, atMs] per viewer per revision, sent and cleared every 250 ms. */
let arrivals = [];
/** Part fetches: [matchIndex, revision, atMs] when answered 2xx, and the failures by status. */
let parts = [];
const partFailures = [];
let cpuStart = process.cpuUsage();

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function fetchPart(viewer, revision, attempt = 1) {
  const req = request(
    {
      host: '127.0.0.1',
      port: config.port,
      path: `/match/${viewer.id}?part=main`,
      agent,
      headers: { accept: 'text/html', 'accept-encoding': 'br, gzip', 'user-agent': 'matchday-bench viewer' },
    },
    (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        if (res.statusCode >= 200 && res.statusCode < 400) parts.push(viewer.match, revision, now());
        else partFailures.push(`GET /match/${viewer.id}?part=main answered ${res.statusCode}`);
      });
    },
  );
  req.on('error', (error) => {
    // A kept-alive connection the server closed as it was being reused: nothing was answered, so
    // the request is sent again, as browsers do (Node's documentation says the same); the next
    // idle connection may have been closed in the same moment, so a few times.
    if (req.reusedSocket && error.code === 'ECONNRESET' && attempt < 5) fetchPart(viewer, revision, attempt + 1);
    else partFailures.push(`GET /match/${viewer.id}?part=main failed: ${error.message}`);
  });
  req.end();
}

/** One live stream over a raw socket: resolves once its head is read (or it was refused). */
function openStream(viewer) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: config.port, localAddress: viewer.address });
    let head = null;
    let text = '';
    let settled = false;
    let open = false;
    const settle = (ok, why) => {
      if (settled) return;
      settled = true;
      open = ok;
      if (!ok) {
        refused.push(`GET /match/${viewer.id}/live from ${viewer.address} ${why}`);
        socket.destroy();
      } else {
        streams.push(socket);
      }
      resolve();
    };
    socket.setTimeout(30_000, () => settle(false, 'timed out'));
    socket.on('error', (error) => settle(false, `failed: ${error.message}`));
    socket.on('close', () => {
      if (open && !closing) dropped += 1;
      settle(false, 'closed before answering');
    });
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (head === null) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = text.slice(0, end);
        text = text.slice(end + 4);
        socket.setTimeout(0);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        if (status !== 200) return settle(false, `answered ${status}`);
        settle(true);
      }
      const complete = text.lastIndexOf('\n');
      if (complete < 0) return;
      const lines = text.slice(0, complete);
      text = text.slice(complete + 1);
      let newest = -1;
      for (const found of lines.matchAll(/^id: (\d+)\r?$/gm)) newest = Math.max(newest, Number(found[1]));
      if (newest <= viewer.seen) return;
      // The first event is the revision the viewer joined at; later ones are uploads being timed.
      if (viewer.seen < 0) {
        viewer.seen = newest;
        return;
      }
      const at = now();
      // A newer revision tells of every one before it too (events coalesce when uploads come fast).
      for (let revision = viewer.seen + 1; revision <= newest; revision += 1) arrivals.push(viewer.match, revision, at);
      viewer.seen = newest;
      if (config.fetchMain) fetchPart(viewer, newest);
    });
    socket.write(`GET /match/${viewer.id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nUser-Agent: matchday-bench viewer\r\n\r\n`);
  });
}

let closing = false;

process.on('message', async (message) => {
  if (message.type === 'open') {
    config = message;
    const viewers = message.viewers.map(([match, id, address]) => ({ match, id, address, seen: -1 }));
    // In waves, as phones arriving at the gym would, so that the opening is not one burst.
    for (let start = 0; start < viewers.length; start += message.wave) {
      await Promise.all(viewers.slice(start, start + message.wave).map(openStream));
    }
    process.send({ type: 'opened', open: streams.length, refused });
    refused = [];
  } else if (message.type === 'measure') {
    cpuStart = process.cpuUsage();
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage(cpuStart);
    process.send({ type: 'report', open: streams.filter((s) => !s.destroyed).length, dropped, refused, partFailures, cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.type === 'close') {
    closing = true;
    for (const socket of streams) socket.destroy();
    agent.destroy();
    await sleep(50);
    process.exit(0);
  }
});

// Arrivals go to the parent in batches: a few IPC messages a second however many viewers.
setInterval(() => {
  if (arrivals.length === 0 && parts.length === 0) return;
  process.send({ type: 'arrivals', arrivals, parts });
  arrivals = [];
  parts = [];
}, 250).unref();
