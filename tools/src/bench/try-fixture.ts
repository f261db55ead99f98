import { buildGitFixture } from './git-fixture.js';
const t = Date.now();
const f = await buildGitFixture(process.argv[2] ?? '/tmp/bench-try.git', { commits: Number(process.argv[3] ?? 2000), files: Number(process.argv[4] ?? 200), seed: 42 });
console.log(JSON.stringify({ ...f, samples: f.samples.slice(0, 2), nsamples: f.samples.length }, null, 1), Date.now() - t, 'ms');
