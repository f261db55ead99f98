/** config.json is missing, not JSON, or lacks what heartwood requires (docs/node-home.md §1.1). */
export class ConfigInvalidError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigInvalidError';
  }
}
