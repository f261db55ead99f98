import { ensurePackages, WRK, CGIT_STACK } from './apt.js';
import { startCgit } from './cgit-server.js';
import { runWrk } from './wrk.js';
console.log(await ensurePackages([WRK, ...CGIT_STACK], true));
const c = await startCgit('/tmp/bench-try.git', '/work/main/tmp/bench-cgit-try');
try {
  for (const p of ['/big/log/?id=0c6cf7c4d947148725b158a5d48758f34b55a76c', '/big/tree/src?id=0c6cf7c4d947148725b158a5d48758f34b55a76c']) {
    const r = await fetch(c.baseUrl + p); const t = await r.text(); console.log(p, r.status, t.length, t.slice(0, 200).replace(/\n/g, ' '));
  }
  console.log(await runWrk({ baseUrl: c.baseUrl, paths: ['/big/log/?id=0c6cf7c4d947148725b158a5d48758f34b55a76c'], concurrency: 4, seconds: 2, scratchDir: '/work/main/tmp/bench-cgit-try' }));
} finally { await c.stop(); }
