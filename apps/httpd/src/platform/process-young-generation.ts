/**
 * The server process's young generation cap, started when this module is first evaluated.
 * main.ts imports it before anything else: V8 grows the young generation while the server's
 * modules load and its storage index is built, and a young generation that has grown cannot be
 * shrunk from here, only kept from growing (platform/young-generation-cap.ts). It starts with
 * the smallest cap any budget gives, before the command line is read; main.ts resizes it to
 * the configured budget's (which lets it grow again, or not at all with a budget of 0).
 */
import { YOUNG_GENERATION_MIN_BYTES } from '../config/memory-budget.js';
import { YoungGenerationCap } from './young-generation-cap.js';

/** This process's cap (tests of the class make their own). */
export const processYoungGeneration = new YoungGenerationCap(YOUNG_GENERATION_MIN_BYTES);
processYoungGeneration.start();
