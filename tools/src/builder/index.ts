export { buildHeartwoodHome } from './heartwood-recipe.js';
export type { HeartwoodHome } from './heartwood-recipe.js';
