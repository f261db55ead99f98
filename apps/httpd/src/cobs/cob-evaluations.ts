import { Injectable } from '@nestjs/common';
import type { CobEvaluation } from '@forge-httpd/cob';

/**
 * Announces every collaborative-object evaluation (not the answers reused from the cache) to
 * its listeners, e.g. the metrics; with none it costs a loop over an empty array.
 */
@Injectable()
export class CobEvaluations {
  private readonly listeners: Array<(evaluation: CobEvaluation) => void> = [];

  /** Adds a listener of every later evaluation. */
  listen(listener: (evaluation: CobEvaluation) => void): void {
    this.listeners.push(listener);
  }

  /** Told by each `CobStore` after an evaluation. */
  record(evaluation: CobEvaluation): void {
    for (const listener of this.listeners) listener(evaluation);
  }
}
