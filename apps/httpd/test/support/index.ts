// Shared e2e test support: real server on an ephemeral port, HTTP helpers, golden files.
export { expectGolden } from './golden.js';
export { type BytesResponse, type ExplorerCheck, getBytes, getJson, getUndecoded, type JsonResponse, rawRequest, type UndecodedResponse } from './http.js';
export { makeTempDir, removeTempDir, tempSocketPath } from './temp-dir.js';
export { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';
export { ABSENT_RID, buildFixtureHome, FIXTURE_TIME } from './fixture-home.js';
export { type FixtureContext, useFixtureServer } from './fixture-server.js';
export { type ScratchServer, startScratchServer } from './scratch-server.js';
export { type GitClientOutput, runGitClient } from './git-client.js';
export { readZipEntries, type ZipEntry } from './zip-entries.js';
export { buildCobHome, type CobWriter, cobWriter } from './cob-writer.js';
export { logLines } from './log-lines.js';
export { SettleClock } from './settle-clock.js';
export { noiseText } from './noise-text.js';
export { stalledClient } from './stalled-client.js';
export { metricValue, waitForMetric } from './metric-value.js';
export { buildScratchHome } from './scratch-home.js';
export { type EventStreamReader, openEventStream, type ReceivedEvent } from './event-stream.js';
export { parseXml, type XmlElement } from './xml-document.js';
